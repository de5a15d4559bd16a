import { describe, expect, it } from 'vitest';

import { NarrowbandRestorer } from './narrowband.js';

const RATE = 16_000;

/** Sines at the given frequencies with fixed phases: a deterministic stand-in for a voice's band. */
function tones(frequencies: readonly number[], seconds: number, amplitude = 3000): Int16Array {
  const out = new Int16Array(Math.round(seconds * RATE));
  for (let n = 0; n < out.length; n++) {
    let value = 0;
    for (const [index, frequency] of frequencies.entries()) {
      value += Math.sin((2 * Math.PI * frequency * n) / RATE + index);
    }
    out[n] = Math.round((amplitude * value) / frequencies.length);
  }
  return out;
}

/** Power of `samples` at `frequency` (Goertzel), for checking where energy lies. */
function powerAt(samples: Int16Array, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / RATE);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  return previous ** 2 + beforePrevious ** 2 - coefficient * previous * beforePrevious;
}

/** Feeds audio in uneven chunks, as a socket delivers it. */
function feed(restorer: NarrowbandRestorer, audio: Int16Array): Int16Array {
  const out = new Int16Array(audio.length);
  for (let offset = 0, size = 700; offset < audio.length; offset += size, size = size === 700 ? 1_333 : 700) {
    const chunk = audio.subarray(offset, offset + size);
    const processed = restorer.process(chunk);
    expect(processed).toHaveLength(chunk.length);
    out.set(processed, offset);
  }
  return out;
}

const VOICE_BAND = [220, 510, 1000, 1730, 2450, 3100, 3600];
const WIDE_BAND = [...VOICE_BAND, 4700, 5600, 6400];

describe('NarrowbandRestorer', () => {
  it('leaves wideband audio untouched', () => {
    const restorer = new NarrowbandRestorer();
    const audio = tones(WIDE_BAND, 3);
    expect(feed(restorer, audio)).toEqual(audio);
    expect(restorer.bandwidth).toBe('wideband');
  });

  it('judges audio with nothing above 4 kHz narrowband and mirrors its band into the empty one, well below it', () => {
    const restorer = new NarrowbandRestorer();
    const audio = tones(VOICE_BAND, 3);
    const out = feed(restorer, audio);
    expect(restorer.bandwidth).toBe('narrowband');
    // After the judgement (about a second of sound), 1 kHz appears mirrored at 7 kHz, 20 dB down.
    const after = out.subarray(2 * RATE);
    const before = audio.subarray(2 * RATE);
    expect(powerAt(before, 7000) / powerAt(before, 1000)).toBeLessThan(1e-6);
    expect(powerAt(after, 7000) / powerAt(after, 1000)).toBeCloseTo(0.01, 2);
    // The band it had is kept as it was.
    expect(powerAt(after, 1000) / powerAt(before, 1000)).toBeCloseTo(1, 1);
    // Before the judgement the audio passed through unchanged.
    expect(out.subarray(0, RATE / 2)).toEqual(audio.subarray(0, RATE / 2));
  });

  it('waits for sound: silence and near-silence decide nothing', () => {
    const restorer = new NarrowbandRestorer();
    feed(restorer, new Int16Array(5 * RATE));
    feed(restorer, tones(VOICE_BAND, 5, 10));
    expect(restorer.bandwidth).toBe('undecided');
    feed(restorer, tones(VOICE_BAND, 2));
    expect(restorer.bandwidth).toBe('narrowband');
  });

  it('keeps the mirroring continuous however the audio is chunked', () => {
    const audio = tones(VOICE_BAND, 3);
    const whole = new NarrowbandRestorer();
    const first = whole.process(audio.subarray(0, 2 * RATE));
    const rest = whole.process(audio.subarray(2 * RATE));
    const chunked = feed(new NarrowbandRestorer(), audio);
    expect(chunked.subarray(2 * RATE)).toEqual(rest);
    expect(first).toHaveLength(2 * RATE);
  });

  it('never overflows 16-bit samples', () => {
    const restorer = new NarrowbandRestorer();
    const quiet = tones(VOICE_BAND, 3);
    const scale = 32_000 / Math.max(...quiet.map(Math.abs));
    const audio = quiet.map((sample) => Math.round(sample * scale));
    const out = feed(restorer, audio);
    expect(restorer.bandwidth).toBe('narrowband');
    // Peaks the mirroring pushes past full scale are clipped there, not wrapped round to the other sign.
    const peaks = [...audio.keys()].filter((index) => Math.abs(audio[index] ?? 0) > 30_000);
    expect(peaks.length).toBeGreaterThan(0);
    for (const index of peaks) expect(Math.sign(out[index] ?? 0)).toBe(Math.sign(audio[index] ?? 0));
  });
});
