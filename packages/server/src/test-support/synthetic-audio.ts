/** Deterministic 16 kHz mono test signals: room noise, tones, and their concatenation. */
export const SAMPLE_RATE = 16_000;

const samplesOf = (ms: number) => Math.round((ms * SAMPLE_RATE) / 1000);

/** White noise of peak `amplitude` (40 ≈ -69 dBFS: a quiet room, not digital zeros). */
export function roomNoise(ms: number, amplitude = 40, seed = 1): Int16Array {
  let state = seed;
  return Int16Array.from({ length: samplesOf(ms) }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.round((state / 2 ** 31 - 0.5) * amplitude);
  });
}

/** A sine of peak `amplitude` over a noise bed, a stand-in for a voiced stretch of speech. */
export function tone(ms: number, amplitude = 8000, hz = 220, seed = 2): Int16Array {
  const bed = roomNoise(ms, 40, seed);
  return bed.map((noise, i) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE)) + noise);
}

/**
 * Speech-like bursts: `burstMs` of tone, `gapMs` of noise, repeated for `ms`: pauses between
 * "words" too short to end an utterance.
 */
export function babble(ms: number, burstMs = 200, gapMs = 100, amplitude = 8000): Int16Array {
  const parts: Int16Array[] = [];
  for (let at = 0; at < ms; at += burstMs + gapMs) {
    parts.push(tone(Math.min(burstMs, ms - at), amplitude, 220 + (at % 700)));
    if (at + burstMs < ms) parts.push(roomNoise(Math.min(gapMs, ms - at - burstMs), 40, at + 3));
  }
  return concatPcm(parts);
}

export function concatPcm(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
