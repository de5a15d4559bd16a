import { describe, expect, it } from 'vitest';

import { rejoinedTranscriptTokens } from './transcript-tokens.js';

describe('rejoinedTranscriptTokens', () => {
  it('joins contractions a transcript split for scoring', () => {
    expect(rejoinedTranscriptTokens("i do n't know , it 's fine and we 're gon na wan na see")).toBe(
      "i don't know , it's fine and we're gonna wanna see",
    );
    expect(rejoinedTranscriptTokens("he ca n't , I’ll got ta go")).toBe("he can't , I’ll gotta go");
    expect(rejoinedTranscriptTokens('a 45 -year-old man')).toBe('a 45-year-old man');
  });

  it('reads a spaced period between a number and one digit as a decimal point', () => {
    expect(rejoinedTranscriptTokens('add aldactone twelve . five milligrams')).toBe(
      'add aldactone twelve point five milligrams',
    );
    expect(rejoinedTranscriptTokens('temperature ninety eight . six and zero . zero five percent')).toBe(
      'temperature ninety eight point six and zero point zero five percent',
    );
    expect(rejoinedTranscriptTokens('an a1c of 7 . 2 today')).toBe('an a1c of 7.2 today');
  });

  it('leaves sentence ends and ordinary text alone', () => {
    const text = "i take two . then I stop . it's 12 . 25 of them. Don't worry. the 'stop' sign";
    expect(rejoinedTranscriptTokens(text)).toBe(text);
  });
});
