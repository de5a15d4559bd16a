import { describe, expect, it } from 'vitest';

import { withFilledPauses } from './filled-pauses.js';

const SENTENCES = Array.from({ length: 400 }, (_, i) => ['the', 'knee', 'hurts', 'when', 'i', 'climb', `stairs${i}`]);
const FILLERS = new Set(['um', 'uh']);

describe('filled pauses in the training text', () => {
  it('puts an "um" or "uh" in about the share of gaps asked for, never before the first word', () => {
    const out = withFilledPauses(SENTENCES, 0.15);
    const gaps = SENTENCES.reduce((n, sentence) => n + sentence.length - 1, 0);
    const inserted = out.flat().filter((word) => FILLERS.has(word));
    expect(inserted.length / gaps).toBeGreaterThan(0.12);
    expect(inserted.length / gaps).toBeLessThan(0.18);
    expect(new Set(inserted)).toEqual(FILLERS);
    expect(out.every((sentence) => !FILLERS.has(sentence[0] ?? ''))).toBe(true);
  });

  it('keeps every word, in order', () => {
    const out = withFilledPauses(SENTENCES, 0.3);
    expect(out.map((sentence) => sentence.filter((word) => !FILLERS.has(word)))).toEqual(SENTENCES);
  });

  it('inserts the same fillers in the same places on every build, and none at rate 0', () => {
    expect(withFilledPauses(SENTENCES, 0.15)).toEqual(withFilledPauses(SENTENCES, 0.15));
    expect(withFilledPauses(SENTENCES, 0)).toEqual(SENTENCES);
  });
});
