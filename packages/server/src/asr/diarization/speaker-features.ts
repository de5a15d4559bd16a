/**
 * The speaker features of a stream: every 10 ms, mel-frequency cepstral coefficients c1–c12 of the
 * last 32 ms (the spectral envelope that tells voices apart; c0, the loudness, says more about the
 * distance to the microphone than about who speaks) and the frame's log energy, to keep only
 * voiced frames. Frames are kept for the last `keepSeconds`, numbered from the stream's first sample,
 * so the features of a final's words can be read once the recognizer has ended its utterance.
 *
 * Every open stream carries one, so it holds its frames in one fixed ring of floats (30 s: 156 KB)
 * and reuses its working arrays: per-frame objects and arrays made about 4 MB per stream and kept
 * the worker's heap high after the streams ended.
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import { powerSpectrum, SPECTRUM_FRAME, spectrumScratch } from '../spectrum.js';

export const FEATURE_HOP_MS = 10;
export const CEPSTRA = 12;
const HOP = (RECOGNIZER_SAMPLE_RATE * FEATURE_HOP_MS) / 1000;
const MEL_FILTERS = 24;
const LOWEST_HZ = 100;
const HIGHEST_HZ = 7600;
/** Per frame in the ring: the cepstra, then the energy. */
const STRIDE = CEPSTRA + 1;

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
  /** Frames computed so far; frame n sits at slot n % keepFrames of the ring. */
  private frames = 0;
  private readonly keepFrames: number;
  private readonly ring: Float32Array;
  private readonly ordered = new Float64Array(SPECTRUM_FRAME);
  private readonly logMel = new Float64Array(MEL_FILTERS);
  private readonly scratch = spectrumScratch();

  constructor(keepSeconds: number) {
    this.keepFrames = Math.ceil((keepSeconds * 1000) / FEATURE_HOP_MS);
    this.ring = new Float32Array(this.keepFrames * STRIDE);
  }

  write(pcm: Int16Array): void {
    for (const sample of pcm) {
      this.window[this.samples % SPECTRUM_FRAME] = sample;
      this.samples++;
      if (this.samples >= SPECTRUM_FRAME && (this.samples - SPECTRUM_FRAME) % HOP === 0) this.computeFrame();
    }
  }

  /**
   * The frames whose window starts between `startMs` and `endMs` of the stream (those still kept).
   * A frame is numbered by where its 32 ms window starts, so it covers what the recognizer timed there.
   */
  between(startMs: number, endMs: number): FeatureFrame[] {
    const from = Math.max(this.frames - this.keepFrames, 0, Math.floor(startMs / FEATURE_HOP_MS));
    const to = Math.min(this.frames, Math.ceil(endMs / FEATURE_HOP_MS));
    const out: FeatureFrame[] = [];
    for (let frame = from; frame < to; frame++) {
      const offset = (frame % this.keepFrames) * STRIDE;
      out.push({
        cepstra: this.ring.slice(offset, offset + CEPSTRA),
        energyDb: this.ring[offset + CEPSTRA] ?? 0,
      });
    }
    return out;
  }

  private computeFrame(): void {
    const oldest = this.samples % SPECTRUM_FRAME;
    let power = 0;
    for (let i = 0; i < SPECTRUM_FRAME; i++) {
      const sample = this.window[(oldest + i) % SPECTRUM_FRAME] ?? 0;
      this.ordered[i] = sample;
      power += sample * sample;
    }
    const spectrum = powerSpectrum(this.ordered, this.scratch);
    FILTERS.forEach(({ from, weights }, f) => {
      let energy = 1e-3;
      for (let k = 0; k < weights.length; k++) energy += (weights[k] ?? 0) * (spectrum[from + k] ?? 0);
      this.logMel[f] = Math.log(energy);
    });
    const offset = (this.frames % this.keepFrames) * STRIDE;
    DCT.forEach((row, c) => {
      let sum = 0;
      for (let f = 0; f < MEL_FILTERS; f++) sum += (row[f] ?? 0) * (this.logMel[f] ?? 0);
      this.ring[offset + c] = sum;
    });
    this.ring[offset + CEPSTRA] = 10 * Math.log10(power / SPECTRUM_FRAME / (32768 * 32768) + 1e-10);
    this.frames++;
  }
}
