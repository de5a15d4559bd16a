/**
 * Speech from text with flite (Debian package `flite`): its voices are recognised far better than
 * espeak-ng's. Used by `npm run eval:asr` to speak reference dialogue; the tests speak with it too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { resampleLinear } from '../resample.js';
import { parseWav } from '../wav.js';

export const RECOGNIZER_RATE = 16_000;

/** `text` spoken by a flite voice (`slt`, `rms`, `awb`, `kal`…), as 16 kHz mono 16-bit samples. */
export function speak(text: string, voice: string): Int16Array {
  const directory = mkdtempSync(join(tmpdir(), 'chartwright-flite-'));
  try {
    const file = join(directory, 'speech.wav');
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    const wav = parseWav(readFileSync(file));
    return resampleLinear(wav.samples, wav.sampleRate, RECOGNIZER_RATE);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Quiet room noise rather than digital zeros, which the recognizer's speech detector and
 * normalisation never meet live. Deterministic for a seed.
 */
export function roomNoise(ms: number, seed = 1): Int16Array {
  let state = seed;
  return Int16Array.from({ length: Math.round((ms * RECOGNIZER_RATE) / 1000) }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.round((state / 2 ** 31 - 0.5) * 40);
  });
}

export function concatenate(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
