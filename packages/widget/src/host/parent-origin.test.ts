import { describe, expect, it } from 'vitest';

import { acceptsMessage, parentOriginOf } from './parent-origin.js';

const ALLOWED = ['https://emr.example.com', 'http://localhost:3000'];

describe('parentOriginOf', () => {
  it('takes the embedding page’s origin from ancestorOrigins when the partner allows it', () => {
    expect(parentOriginOf(ALLOWED, { ancestorOrigins: ['http://localhost:3000'], referrer: '' })).toBe(
      'http://localhost:3000',
    );
  });

  it('falls back to the referrer’s origin (the path never matters)', () => {
    expect(
      parentOriginOf(ALLOWED, { ancestorOrigins: undefined, referrer: 'https://emr.example.com/charts/42?tab=scribe' }),
    ).toBe('https://emr.example.com');
  });

  it('knows no origin when the browser does not say, or says one the partner does not allow', () => {
    expect(parentOriginOf(ALLOWED, { ancestorOrigins: undefined, referrer: '' })).toBeNull();
    expect(parentOriginOf(ALLOWED, { ancestorOrigins: [], referrer: 'about:blank' })).toBeNull();
    expect(parentOriginOf(ALLOWED, { ancestorOrigins: ['https://evil.example'], referrer: '' })).toBeNull();
    expect(
      parentOriginOf(ALLOWED, { ancestorOrigins: undefined, referrer: 'https://emr.example.com.evil.example/' }),
    ).toBeNull();
  });

  it('trusts ancestorOrigins over a referrer that names another allowed origin', () => {
    expect(
      parentOriginOf(ALLOWED, { ancestorOrigins: ['https://evil.example'], referrer: 'https://emr.example.com/' }),
    ).toBeNull();
  });
});

describe('acceptsMessage', () => {
  it('reads a message from the embedding window on an allowed origin', () => {
    expect(acceptsMessage({ origin: 'https://emr.example.com', fromParent: true }, ALLOWED, null)).toBe(true);
  });

  it('drops one from any other window, even on an allowed origin', () => {
    expect(acceptsMessage({ origin: 'https://emr.example.com', fromParent: false }, ALLOWED, null)).toBe(false);
  });

  it('drops one from an origin the partner does not allow, even from the embedding window', () => {
    expect(acceptsMessage({ origin: 'https://evil.example', fromParent: true }, ALLOWED, null)).toBe(false);
    expect(acceptsMessage({ origin: 'null', fromParent: true }, ALLOWED, null)).toBe(false);
  });

  it('once the host’s origin is pinned, drops the partner’s other origins too', () => {
    expect(
      acceptsMessage({ origin: 'http://localhost:3000', fromParent: true }, ALLOWED, 'https://emr.example.com'),
    ).toBe(false);
    expect(
      acceptsMessage({ origin: 'https://emr.example.com', fromParent: true }, ALLOWED, 'https://emr.example.com'),
    ).toBe(true);
  });
});
