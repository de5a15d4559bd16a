import { describe, expect, it } from 'vitest';

import { applySetContext, EXTRA_CONTEXT_MAX_LENGTH } from './extra-context.js';

describe('applySetContext', () => {
  it('appends a line, or starts the text', () => {
    expect(applySetContext('', { context: 'Works nights.', mode: 'append' })).toEqual({
      ok: true,
      context: 'Works nights.',
    });
    expect(applySetContext('Works nights.', { context: 'Lives alone.', mode: 'append' })).toEqual({
      ok: true,
      context: 'Works nights.\nLives alone.',
    });
  });

  it('adds nothing for an empty append', () => {
    expect(applySetContext('Works nights.', { context: '', mode: 'append' })).toEqual({
      ok: true,
      context: 'Works nights.',
    });
  });

  it('replaces the text on overwrite, and clears it with an empty one', () => {
    expect(applySetContext('Works nights.', { context: 'Retired.', mode: 'overwrite' })).toEqual({
      ok: true,
      context: 'Retired.',
    });
    expect(applySetContext('Works nights.', { context: '', mode: 'overwrite' })).toEqual({ ok: true, context: '' });
  });

  it('refuses a text longer than a note request takes, naming the field', () => {
    const result = applySetContext('x'.repeat(EXTRA_CONTEXT_MAX_LENGTH), { context: 'more', mode: 'append' });
    expect(result).toEqual({ ok: false, entry: expect.stringMatching(/^context: .*at most 20000/) as unknown });
  });
});
