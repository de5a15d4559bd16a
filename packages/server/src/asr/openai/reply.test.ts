import { describe, expect, it } from 'vitest';

import { finalOf, transcriptionSchema } from './reply.js';

const span = { offsetMs: 10_000, durationMs: 2_000 };
const reply = (value: unknown) => transcriptionSchema.parse(value);

describe('finalOf', () => {
  it('puts words on the stream clock: the utterance offset plus their times in the file', () => {
    const final = finalOf(
      reply({
        text: ' The knee  hurts. ',
        words: [
          { word: ' The', start: 0.21, end: 0.4 },
          { word: 'knee', start: 0.4, end: 0.72 },
          { word: 'hurts.', start: 0.8, end: 1.3 },
        ],
        segments: [{ start: 0.2, end: 1.3, text: ' The knee hurts.', avg_logprob: -0.2, no_speech_prob: 0.01 }],
      }),
      span,
    );
    expect(final).toEqual({
      text: 'The knee hurts.',
      startMs: 10_210,
      endMs: 11_300,
      words: [
        { word: 'The', startMs: 10_210, endMs: 10_400 },
        { word: 'knee', startMs: 10_400, endMs: 10_720 },
        { word: 'hurts', startMs: 10_800, endMs: 11_300 },
      ],
    });
  });

  it('takes word probabilities as confidences when the server gives them', () => {
    const final = finalOf(
      reply({ text: 'yes', words: [{ word: 'yes', start: 0, end: 0.3, probability: 0.93 }] }),
      span,
    );
    expect(final?.words).toEqual([{ word: 'yes', startMs: 10_000, endMs: 10_300, confidence: 0.93 }]);
  });

  it('uses segment times without words, and the utterance span with text alone', () => {
    expect(
      finalOf(reply({ text: 'No fever.', segments: [{ start: 0.5, end: 1.5, text: 'No fever.' }] }), span),
    ).toEqual({
      text: 'No fever.',
      startMs: 10_500,
      endMs: 11_500,
    });
    expect(finalOf(reply({ text: 'No fever.' }), span)).toEqual({ text: 'No fever.', startMs: 10_000, endMs: 12_000 });
  });

  it('clamps times that overshoot the end of the file', () => {
    const final = finalOf(reply({ text: 'okay', words: [{ word: 'okay', start: 1.8, end: 2.4 }] }), span);
    expect(final).toMatchObject({ startMs: 11_800, endMs: 12_000 });
  });

  it("drops what Whisper wrote over silence or noise, by Whisper's own thresholds", () => {
    const thanks = { start: 1.2, end: 2, text: ' Thank you.', avg_logprob: -1.4, no_speech_prob: 0.8 };
    const final = finalOf(
      reply({
        text: ' Take it twice daily. Thank you.',
        words: [
          { word: 'Take', start: 0, end: 0.2 },
          { word: 'it', start: 0.2, end: 0.3 },
          { word: 'twice', start: 0.3, end: 0.6 },
          { word: 'daily.', start: 0.6, end: 1 },
          { word: 'Thank', start: 1.3, end: 1.5 },
          { word: 'you.', start: 1.5, end: 1.8 },
        ],
        segments: [{ start: 0, end: 1, text: ' Take it twice daily.', avg_logprob: -0.3, no_speech_prob: 0.7 }, thanks],
      }),
      span,
    );
    expect(final?.text).toBe('Take it twice daily.');
    expect(final?.words?.map((word) => word.word)).toEqual(['Take', 'it', 'twice', 'daily']);
    expect(finalOf(reply({ text: ' Thank you.', segments: [thanks] }), span)).toBeUndefined();
  });

  it('gives no final for an empty transcription', () => {
    expect(finalOf(reply({ text: '  ', words: [], segments: [] }), span)).toBeUndefined();
  });

  it('refuses a reply that is not a transcription', () => {
    expect(transcriptionSchema.safeParse({ choices: [] }).success).toBe(false);
    expect(transcriptionSchema.safeParse({ text: 'x', words: [{ word: 'x', start: -1, end: 0 }] }).success).toBe(false);
  });
});
