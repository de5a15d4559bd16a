import { describe, expect, it } from 'vitest';

import type { Segment } from './native.js';
import { cutFrame } from './decoder-session.js';

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
