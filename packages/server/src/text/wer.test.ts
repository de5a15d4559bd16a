import { describe, expect, it } from 'vitest';

import { normaliseWords, wordEditDistance, wordErrorRate } from './wer.js';

describe('word error rate', () => {
  it('normalises case and punctuation', () => {
    expect(normaliseWords("Hello, World! It's  fine.")).toEqual(['hello', 'world', "it's", 'fine']);
  });

  it('counts substitutions, deletions and insertions', () => {
    expect(wordEditDistance(['a', 'b', 'c'], ['a', 'x', 'c'])).toBe(1);
    expect(wordEditDistance(['a', 'b', 'c'], ['a', 'c'])).toBe(1);
    expect(wordEditDistance(['a', 'b'], ['a', 'b', 'c', 'd'])).toBe(2);
    expect(wordEditDistance([], ['a'])).toBe(1);
  });

  it('divides by the reference length', () => {
    expect(wordErrorRate('go forward ten meters', 'go forward ten meters')).toBe(0);
    expect(wordErrorRate('go forward ten meters', 'go forward two meters')).toBe(0.25);
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'noise')).toBe(1);
  });
});
