import { describe, expect, it } from 'vitest';

import { detectBrowser, serverRuntime } from './environment.js';

describe('detectBrowser', () => {
  it('is true in a page and in a web worker', () => {
    expect(detectBrowser({ window: { document: {} } })).toBe(true);
    expect(detectBrowser({ importScripts: () => undefined })).toBe(true);
  });

  it('is false in Node, and where a server defines a bare window without a document', () => {
    expect(detectBrowser(globalThis)).toBe(false);
    expect(detectBrowser({ window: {} })).toBe(false);
    expect(detectBrowser({ process: { versions: { node: '20.0.0' } } })).toBe(false);
  });
});

describe('serverRuntime', () => {
  it('names Node, Bun and Deno with their versions', () => {
    expect(serverRuntime(globalThis)).toBe(`node/${process.version}`);
    expect(serverRuntime({ process: { versions: { node: '1.1.0', bun: '1.2.3' } } })).toBe('bun/1.2.3');
    expect(serverRuntime({ Deno: { version: { deno: '2.1.0' } } })).toBe('deno/2.1.0');
    expect(serverRuntime({})).toBeUndefined();
  });
});
