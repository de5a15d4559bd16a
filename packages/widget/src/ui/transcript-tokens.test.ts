import type { TranscriptSegment } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import { shownTokens } from './transcript-tokens.js';

const word = (text: string, confidence?: number) => ({
  word: text,
  startMs: 0,
  endMs: 1,
  ...(confidence === undefined ? {} : { confidence }),
});

const SEGMENT: TranscriptSegment = {
  id: 'seg_000001',
  text: 'take ten milligrams',
  display: 'Take 10 mg.',
  displayTokens: [
    { text: 'Take', wordStart: 0, wordEnd: 1 },
    { text: '10', wordStart: 1, wordEnd: 2 },
    { text: 'mg.', wordStart: 2, wordEnd: 3 },
  ],
  startMs: 0,
  endMs: 900,
  channel: 0,
  speaker: 'clinician',
  words: [word('take', 0.9), word('ten', 0.31), word('milligrams')],
};

describe('shownTokens', () => {
  it('marks a display token whose words the recognizer was unsure of, with the lowest confidence', () => {
    expect(shownTokens(SEGMENT)).toEqual([
      { text: 'Take', unsure: null },
      { text: '10', unsure: 0.31 },
      { text: 'mg.', unsure: null },
    ]);
  });

  it('marks nothing when the words do not line up with the text, or there are none', () => {
    expect(shownTokens({ ...SEGMENT, words: [word('take', 0.1)] }).every((token) => token.unsure === null)).toBe(true);
    const { words: _words, ...corrected } = SEGMENT;
    expect(shownTokens(corrected).map((token) => token.text)).toEqual(['Take', '10', 'mg.']);
  });
});
