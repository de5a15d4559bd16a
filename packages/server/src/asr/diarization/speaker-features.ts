/**
 * The speaker features of a stream: every 10 ms, mel-frequency cepstral coefficients c1–c12 of the
 * last 32 ms (the spectral envelope that tells voices apart; c0, the loudness, says more about the
 * distance to the microphone than about who speaks) and the frame's log energy, to keep only
 * voiced frames. Frames are kept for the last `keepSeconds`, numbered from the stream's first sample,
 * so the features of a final's words can be read once the recognizer has ended its utterance.
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import { powerSpectrum, SPECTRUM_FRAME } from '../spectrum.js';

export const FEATURE_HOP_MS = 10;
export const CEPSTRA = 12;
const HOP = (RECOGNIZER_SAMPLE_RATE * FEATURE_HOP_MS) / 1000;
const MEL_FILTERS = 24;
const LOWEST_HZ = 100;
const HIGHEST_HZ = 7600;

const mel = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
const hz = (m: number): number => 700 * (10 ** (m / 2595) - 1);

/** Triangular filters on the mel scale, as [first bin, weights] per filter. */
const FILTERS: readonly { from: number; weights: Float64Array }[] = (() => {
  const edges = Array.from({ length: MEL_FILTERS + 2 }, (_, i) =>
    hz(mel(LOWEST_HZ) + ((mel(HIGHEST_HZ) - mel(LOWEST_HZ)) * i) / (MEL_FILTERS + 1)),
  );
  const bin = (frequency: number): number => (frequency * SPECTRUM_FRAME) / RECOGNIZER_SAMPLE_RATE;
  return Array.from({ length: MEL_FILTERS }, (_, f) => {
    const [low, centre, high] = [bin(edges[f] ?? 0), bin(edges[f + 1] ?? 0), bin(edges[f + 2] ?? 0)];
    const from = Math.ceil(low);
    const to = Math.floor(high);
    const weights = new Float64Array(Math.max(0, to - from + 1));
    for (let k = from; k <= to; k++) {
      weights[k - from] = k <= centre ? (k - low) / (centre - low) : (high - k) / (high - centre);
    }
    return { from, weights };
  });
})();

/** DCT-II rows 1..CEPSTRA over the filters' log energies. */
const DCT: readonly Float64Array[] = Array.from({ length: CEPSTRA }, (_, row) =>
  Float64Array.from({ length: MEL_FILTERS }, (_, f) => Math.cos((Math.PI * (row + 1) * (f + 0.5)) / MEL_FILTERS)),
);

export interface FeatureFrame {
  cepstra: Float32Array;
  /** dB of the frame's mean power relative to a 16-bit full scale. */
  energyDb: number;
}

export class SpeakerFeatures {
  /** The last SPECTRUM_FRAME samples, as a ring. */
  private readonly window = new Float64Array(SPECTRUM_FRAME);
  private samples = 0;
  private readonly frames: FeatureFrame[] = [];
  /** The stream frame number of frames[0]. */
  private firstFrame = 0;
  private readonly keepFrames: number;

  constructor(keepSeconds: number) {
    this.keepFrames = Math.ceil((keepSeconds * 1000) / FEATURE_HOP_MS);
  }

  write(pcm: Int16Array): void {
    for (const sample of pcm) {
      this.window[this.samples % SPECTRUM_FRAME] = sample;
      this.samples++;
      if (this.samples >= SPECTRUM_FRAME && (this.samples - SPECTRUM_FRAME) % HOP === 0) this.frames.push(this.frame());
    }
    const excess = this.frames.length - this.keepFrames;
    if (excess > 0) {
      this.frames.splice(0, excess);
      this.firstFrame += excess;
    }
  }

  /**
   * The frames whose window starts between `startMs` and `endMs` of the stream (those still kept).
   * A frame is numbered by where its 32 ms window starts, so it covers what the recognizer timed there.
   */
  between(startMs: number, endMs: number): FeatureFrame[] {
    const from = Math.max(0, Math.floor(startMs / FEATURE_HOP_MS) - this.firstFrame);
    const to = Math.min(this.frames.length, Math.ceil(endMs / FEATURE_HOP_MS) - this.firstFrame);
    return from < to ? this.frames.slice(from, to) : [];
  }

  private frame(): FeatureFrame {
    const ordered = new Float64Array(SPECTRUM_FRAME);
    const oldest = this.samples % SPECTRUM_FRAME;
    let power = 0;
    for (let i = 0; i < SPECTRUM_FRAME; i++) {
      const sample = this.window[(oldest + i) % SPECTRUM_FRAME] ?? 0;
      ordered[i] = sample;
      power += sample * sample;
    }
    const spectrum = powerSpectrum(ordered);
    const logMel = FILTERS.map(({ from, weights }) => {
      let energy = 1e-3;
      for (let k = 0; k < weights.length; k++) energy += (weights[k] ?? 0) * (spectrum[from + k] ?? 0);
      return Math.log(energy);
    });
    const cepstra = new Float32Array(CEPSTRA);
    DCT.forEach((row, c) => {
      let sum = 0;
      for (let f = 0; f < MEL_FILTERS; f++) sum += (row[f] ?? 0) * (logMel[f] ?? 0);
      cepstra[c] = sum;
    });
    const energyDb = 10 * Math.log10(power / SPECTRUM_FRAME / (32768 * 32768) + 1e-10);
    return { cepstra, energyDb };
  }
}
