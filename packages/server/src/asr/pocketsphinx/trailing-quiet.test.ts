import { describe, expect, it } from 'vitest';

import { QUIET_BELOW_PEAK_DB, TrailingQuiet } from './trailing-quiet.js';

/** `frames` of 10 ms of a 200 Hz tone at `amplitude`. */
function tone(amplitude: number, frames: number): Int16Array {
  return Int16Array.from({ length: frames * 160 }, (_, index) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * 200 * index) / 16_000)),
  );
}

describe('TrailingQuiet', () => {
  it('counts the frames since the audio fell far below the loudest of the speech, and starts over on a loud one', () => {
    const quiet = new TrailingQuiet();
    quiet.hear(tone(8_000, 20));
    expect(quiet.frames).toBe(0);
    // 30 dB below the voice: quiet; then a word again.
    quiet.hear(tone(253, 25));
    expect(quiet.frames).toBe(25);
    quiet.hear(tone(4_000, 1));
    expect(quiet.frames).toBe(0);
  });

  it(`does not count audio less than ${QUIET_BELOW_PEAK_DB} dB below the peak (a soft syllable)`, () => {
    const quiet = new TrailingQuiet();
    quiet.hear(tone(8_000, 20));
    quiet.hear(tone(1_600, 40)); // 14 dB below
    expect(quiet.frames).toBe(0);
  });

  it('forgets the peak on reset, so the silence before the next speech is not measured against the last', () => {
    const quiet = new TrailingQuiet();
    quiet.hear(tone(8_000, 20));
    quiet.reset();
    quiet.hear(tone(253, 25));
    expect(quiet.frames).toBe(0);
  });
});
