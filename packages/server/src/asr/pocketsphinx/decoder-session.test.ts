import { describe, expect, it } from 'vitest';

import type { Segment } from './native.js';
import { cutFrame, DecoderSession, type DecoderCalls } from './decoder-session.js';

/** Segments from "word:start-end" specs, as the decoder's segment iterator reports them. */
function segments(spec: string): Segment[] {
  return spec.split(' ').map((entry) => {
    const [word = '', frames = ''] = entry.split(':');
    const [start = 0, end = 0] = frames.split('-').map(Number);
    return { word, startFrame: start, endFrame: end, logProbability: 0 };
  });
}

describe('cutFrame: where a long utterance is cut', () => {
  const speech = segments(
    '<s>:0-40 the:41-60 patient:61-110 <sil>:111-130 reports:131-190 chest:191-240 <sil>:241-243 pain:244-300',
  );

  it('cuts in the middle of the last pause in the window', () => {
    expect(cutFrame(speech, 100, 260)).toBe(121);
  });

  it('ignores pauses too short to be one, and cuts after the last word in the window instead', () => {
    expect(cutFrame(speech, 150, 260)).toBe(241);
    expect(cutFrame(speech, 150, 240)).toBe(191);
  });

  it('never cuts before the first word ends, so each cut makes progress', () => {
    expect(cutFrame(speech, 0, 55)).toBeNull();
    expect(cutFrame(speech, 0, 61)).toBe(61);
  });

  it('finds nothing when no word ends in the window or there are no words', () => {
    expect(cutFrame(speech, 245, 290)).toBeNull();
    expect(cutFrame(segments('<s>:0-40 <sil>:41-90 </s>:91-95'), 0, 95)).toBeNull();
  });
});

describe('DecoderSession finals', () => {
  /** The library's side (a third party's): an utterance that decodes to `spec`. */
  function decoderSaying(spec: string): DecoderCalls {
    return {
      startUtterance: () => undefined,
      endUtterance: () => undefined,
      process: () => undefined,
      inSpeech: () => false,
      hypothesis: () => '',
      segments: () => segments(spec),
      probability: () => 0.9,
    };
  }

  it('carries no filled pause, noise or silence: um, uh and hmm are not words; mhm (yes) is', () => {
    const session = new DecoderSession(
      decoderSaying(
        '<s>:0-9 um:10-30 the(2):31-40 patient:41-80 [NOISE]:81-90 hmm:91-120 uh:121-130 reports:131-170 <sil>:171-180 mhm:181-200 </s>:201-210',
      ),
      { partialIntervalSamples: 4_000, maxUtteranceSamples: 288_000 },
    );
    const [final] = session.end();
    expect(final).toMatchObject({ type: 'final', text: 'the patient reports mhm', startMs: 310, endMs: 2010 });
    expect(final?.type === 'final' ? (final.words ?? []).map((word) => word.word) : []).toEqual([
      'the',
      'patient',
      'reports',
      'mhm',
    ]);
  });

  it('makes no final of an utterance that was only a filled pause', () => {
    const session = new DecoderSession(decoderSaying('<s>:0-9 um:10-40 </s>:41-50'), {
      partialIntervalSamples: 4_000,
      maxUtteranceSamples: 288_000,
    });
    expect(session.end()).toEqual([]);
  });
});
