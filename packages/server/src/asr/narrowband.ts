/**
 * Narrowband audio (telephone lines, 8 kHz recorders: nothing above 4 kHz once up-sampled to the
 * recognizer's 16 kHz) starves the upper filters of the wideband acoustic model's front end. Their
 * log energies fall far below any frame the model was trained on and distort every cepstral
 * coefficient, so such speech decodes badly. Mirroring the 0–4 kHz band into the empty 4–8 kHz
 * band, well below it, gives those filters speech-shaped energy again: on the real 8 kHz recordings
 * of the development set this removed about a tenth of the read-speech errors
 * (docs/realtime.md, "Narrowband audio").
 *
 * A stream is judged once, from its first second or so of audio with some energy in it: narrowband
 * when the energy above 4.3 kHz is under 1e-4 of the total (up-sampled 8 kHz recordings measure
 * 3e-8 to 4e-5; wideband ones 3e-3 and more). Until then, and for wideband streams, audio passes
 * through unchanged. Pure and cheap (one 512-point FFT per 32 ms until the judgement, nothing
 * after); runs in the recognizer's workers.
 */
import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

import { SPECTRUM_FRAME as FRAME, powerSpectrum } from './spectrum.js';

/** The bins from 4.3 kHz up: above what an 8 kHz recording can hold, with room for its filter's edge. */
const HIGH_BAND_FROM = Math.ceil((4300 * FRAME) / RECOGNIZER_SAMPLE_RATE);
/** DC and the lowest bins carry hum and offset, not speech. */
const LOW_BAND_FROM = 4;
const NARROWBAND_RATIO = 1e-4;
/** Voiced frames that make the judgement: about a second, so a few vowels with little above 4 kHz cannot decide it. */
const FRAMES_TO_JUDGE = 32;
/**
 * A frame quieter than this (RMS 200 in 16-bit samples, about -44 dBFS) is background, not voice:
 * a quiet room's noise floor fills every band alike and would hide a narrowband recording.
 */
const MIN_FRAME_POWER = 200 * 200;
/** How loud the mirrored band is against the band it mirrors (amplitude): 0.1 and 0.3 were measured alike on read speech, 0.1 better on digits. */
const MIRROR_GAIN = 0.1;

export type Bandwidth = 'undecided' | 'wideband' | 'narrowband';

export class NarrowbandRestorer {
  private state: Bandwidth = 'undecided';
  /** Samples seen, for the parity of the mirroring (continuous across chunks). */
  private position = 0;
  private readonly frame = new Float64Array(FRAME);
  private filled = 0;
  private judgedFrames = 0;
  private highEnergy = 0;
  private totalEnergy = 0;

  get bandwidth(): Bandwidth {
    return this.state;
  }

  /** The chunk as the decoder should hear it (the same length). */
  process(pcm: Int16Array): Int16Array {
    if (this.state === 'undecided') this.measure(pcm);
    const out = this.state === 'narrowband' ? mirrored(pcm, this.position) : pcm;
    this.position += pcm.length;
    return out;
  }

  private measure(pcm: Int16Array): void {
    for (let i = 0; i < pcm.length && this.state === 'undecided'; i++) {
      this.frame[this.filled++] = pcm[i] ?? 0;
      if (this.filled === FRAME) {
        this.filled = 0;
        this.judgeFrame();
      }
    }
  }

  private judgeFrame(): void {
    let power = 0;
    for (const sample of this.frame) power += sample * sample;
    if (power / FRAME < MIN_FRAME_POWER) return;
    const spectrum = powerSpectrum(this.frame);
    for (let bin = LOW_BAND_FROM; bin < FRAME / 2; bin++) {
      const energy = spectrum[bin] ?? 0;
      this.totalEnergy += energy;
      if (bin >= HIGH_BAND_FROM) this.highEnergy += energy;
    }
    if (++this.judgedFrames < FRAMES_TO_JUDGE) return;
    this.state = this.highEnergy < NARROWBAND_RATIO * this.totalEnergy ? 'narrowband' : 'wideband';
  }
}

/**
 * x[n]·(1 + g·(−1)ⁿ): the original plus, at gain g, its spectrum mirrored about 4 kHz (multiplying
 * by (−1)ⁿ shifts a spectrum by half the sample rate). `start` is the first sample's index in the
 * stream, so chunk boundaries do not flip the sign pattern.
 */
function mirrored(pcm: Int16Array, start: number): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) {
    const sign = (start + i) % 2 === 0 ? 1 : -1;
    const value = Math.round((pcm[i] ?? 0) * (1 + sign * MIRROR_GAIN));
    out[i] = Math.max(-32768, Math.min(32767, value));
  }
  return out;
}
