/** Building blocks of the recognizer's 16 kHz mono 16-bit PCM that the evaluation and the tests assemble audio from. */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import { seededRandom } from '../shared/seeded-random.js';

/**
 * White noise of peak `amplitude` (40 ≈ -69 dBFS: a quiet room), rather than digital zeros, which the
 * recognizer's speech detector and normalisation never meet live. Deterministic for a seed.
 */
export function roomNoise(ms: number, amplitude = 40, seed = 1): Int16Array {
  const random = seededRandom(seed);
  return Int16Array.from({ length: Math.round((ms * RECOGNIZER_SAMPLE_RATE) / 1000) }, () =>
    Math.round((random() - 0.5) * amplitude),
  );
}

export { concatPcm } from '@chartwright/server/internal/asr/pcm.js';
