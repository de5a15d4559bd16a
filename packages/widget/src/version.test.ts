import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { WIDGET_VERSION } from './version.js';

describe('WIDGET_VERSION', () => {
  it('is the package’s version, as WIDGET_READY announces it', () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(WIDGET_VERSION).toBe(version);
  });
});
