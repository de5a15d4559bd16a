/** Deterministic 16 kHz mono test signals: room noise, tones, and their concatenation. */
import { RECOGNIZER_SAMPLE_RATE as PCM_SAMPLE_RATE } from '@chartwright/protocol';
import { concatPcm, roomNoise } from '@chartwright/server/tools/speech/pcm.js';

export { concatPcm, roomNoise };
export const SAMPLE_RATE = PCM_SAMPLE_RATE;

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
