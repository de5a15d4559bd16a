import { describe, expect, it } from 'vitest';

import { resampleLinear } from './resample.js';

function sine(rate: number, hz: number, seconds: number): Int16Array {
  return Int16Array.from({ length: rate * seconds }, (_, i) =>
    Math.round(10_000 * Math.sin((2 * Math.PI * hz * i) / rate)),
  );
}

/** Amplitude of `hz` in `pcm` by correlation with sine and cosine (a one-bin DFT). */
function amplitudeAt(pcm: Int16Array, rate: number, hz: number): number {
  let re = 0;
  let im = 0;
  pcm.forEach((v, i) => {
    re += v * Math.cos((2 * Math.PI * hz * i) / rate);
    im += v * Math.sin((2 * Math.PI * hz * i) / rate);
  });
  return (2 * Math.hypot(re, im)) / pcm.length;
}

describe('resampleLinear', () => {
  it('keeps length proportional to the rate ratio', () => {
    expect(resampleLinear(new Int16Array(8000), 8000, 16000)).toHaveLength(16000);
    expect(resampleLinear(new Int16Array(48000), 48000, 16000)).toHaveLength(16000);
    expect(resampleLinear(new Int16Array(22050), 22050, 16000)).toHaveLength(16000);
  });

  it('returns a copy at the same rate', () => {
    const input = Int16Array.of(1, 2, 3);
    const output = resampleLinear(input, 16000, 16000);
    expect(output).toEqual(input);
    expect(output).not.toBe(input);
  });

  it('preserves a speech-band tone up and down', () => {
    const up = resampleLinear(sine(8000, 440, 1), 8000, 16000);
    expect(amplitudeAt(up, 16000, 440)).toBeGreaterThan(9_500);
    const down = resampleLinear(sine(48000, 440, 1), 48000, 16000);
    expect(amplitudeAt(down, 16000, 440)).toBeGreaterThan(9_500);
  });

  it('clamps to the 16-bit range and rejects bad rates', () => {
    const loud = resampleLinear(Int16Array.of(32767, 32767, -32768, -32768), 4, 8);
    expect(Math.max(...loud)).toBeLessThanOrEqual(32767);
    expect(() => resampleLinear(new Int16Array(1), 0, 16000)).toThrow(RangeError);
  });
});
