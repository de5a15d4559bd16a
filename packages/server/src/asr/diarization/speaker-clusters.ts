/**
 * Online speaker clustering: each utterance joins the voice it sounds most like, or starts a new
 * one. A voice is a Gaussian with a diagonal covariance over its frames' cepstra; the test is the
 * Bayesian information criterion (ΔBIC): one Gaussian for the voice and the utterance together
 * against one each, with a penalty for the extra parameters. ΔBIC < 0 says one voice explains both.
 *
 * Measured on flite two-voice dialogues (rms/awb, rms/slt; tools `eval:e2e`): a penalty weight of 2
 * split one person into three or four voices; 3 gave two voices and every word right; 4 began to
 * merge voices (docs/realtime.md, "Speakers with one microphone").
 */
import { CEPSTRA } from './speaker-features.js';

const PENALTY_WEIGHT = 3;
/**
 * A new voice also needs ΔBIC above this per frame of the two: the penalty grows only with the log
 * of the frames, so one long utterance (a 15 s exam or plan) can beat it by a hair and split the
 * speaker in two. Flite visit D2N079: the clinician's first 15 s monologue scored +36 to +38 over
 * 5,100 frames (0.007 per frame) and became a third voice; every real change of speaker measured
 * 0.3–0.5 per frame when it opened (docs/realtime.md, "Speakers with one microphone").
 */
const MIN_NEW_VOICE_SCORE_PER_FRAME = 0.05;
/**
 * Against a voice of fewer voiced frames than this (3 s), the Gaussian is a rough sketch, and the
 * same speaker can differ from it by more: a new voice then needs twice the score. Flite visit
 * D2N080 (rms/slt): the clinician's third utterance differed from the 2.5 s of their first two by
 * 0.076 per frame and became a second clinician; with the clinician's voice grown, the patient
 * opened theirs at 0.236. Second speakers opening against a voice this small measured 0.12–0.63.
 */
const ESTABLISHED_VOICE_FRAMES = 300;
const MIN_NEW_VOICE_SCORE_PER_FRAME_AGAINST_NEW = 0.1;
/** Fewer voiced frames than this (0.8 s) say too little to start a voice; the utterance joins the closest. */
const MIN_FRAMES_FOR_NEW_VOICE = 80;
/** An exam room rarely holds more; past this, utterances join the closest voice. */
const MAX_VOICES = 4;
/** A variance floor, so a near-constant coefficient cannot dominate the determinant. */
const MIN_VARIANCE = 1e-3;

export interface FrameStats {
  frames: number;
  sum: Float64Array;
  sumOfSquares: Float64Array;
}

export function frameStats(frames: readonly Float32Array[]): FrameStats {
  const sum = new Float64Array(CEPSTRA);
  const sumOfSquares = new Float64Array(CEPSTRA);
  for (const frame of frames) {
    for (let d = 0; d < CEPSTRA; d++) {
      const value = frame[d] ?? 0;
      sum[d] = (sum[d] ?? 0) + value;
      sumOfSquares[d] = (sumOfSquares[d] ?? 0) + value * value;
    }
  }
  return { frames: frames.length, sum, sumOfSquares };
}

function combined(a: FrameStats, b: FrameStats): FrameStats {
  const sum = new Float64Array(CEPSTRA);
  const sumOfSquares = new Float64Array(CEPSTRA);
  for (let d = 0; d < CEPSTRA; d++) {
    sum[d] = (a.sum[d] ?? 0) + (b.sum[d] ?? 0);
    sumOfSquares[d] = (a.sumOfSquares[d] ?? 0) + (b.sumOfSquares[d] ?? 0);
  }
  return { frames: a.frames + b.frames, sum, sumOfSquares };
}

/** log |Σ| of the stats' diagonal Gaussian. */
function logDeterminant(stats: FrameStats): number {
  let total = 0;
  for (let d = 0; d < CEPSTRA; d++) {
    const mean = (stats.sum[d] ?? 0) / stats.frames;
    total += Math.log(Math.max((stats.sumOfSquares[d] ?? 0) / stats.frames - mean * mean, MIN_VARIANCE));
  }
  return total;
}

/** ΔBIC of modelling `a` and `b` as one voice rather than two: negative when one explains both. */
export function deltaBic(a: FrameStats, b: FrameStats): number {
  const both = combined(a, b);
  const fit = both.frames * logDeterminant(both) - a.frames * logDeterminant(a) - b.frames * logDeterminant(b);
  const parameters = 2 * CEPSTRA;
  return 0.5 * fit - PENALTY_WEIGHT * 0.5 * parameters * Math.log(both.frames);
}

export class SpeakerClusters {
  private readonly voices: FrameStats[] = [];

  /** The voice (0, 1, …, in order of first appearance) the utterance's voiced frames belong to. */
  assign(utterance: FrameStats): number {
    let best = -1;
    let bestScore = Infinity;
    this.voices.forEach((voice, index) => {
      const score = deltaBic(voice, utterance);
      if (score < bestScore) {
        best = index;
        bestScore = score;
      }
    });
    const closest = this.voices[best];
    const perFrame =
      closest !== undefined && closest.frames < ESTABLISHED_VOICE_FRAMES
        ? MIN_NEW_VOICE_SCORE_PER_FRAME_AGAINST_NEW
        : MIN_NEW_VOICE_SCORE_PER_FRAME;
    const distinct = closest === undefined || bestScore > perFrame * (closest.frames + utterance.frames);
    const opensVoice =
      best === -1 || (distinct && utterance.frames >= MIN_FRAMES_FOR_NEW_VOICE && this.voices.length < MAX_VOICES);
    if (opensVoice) {
      this.voices.push(utterance);
      return this.voices.length - 1;
    }
    if (closest !== undefined) this.voices[best] = combined(closest, utterance);
    return best;
  }
}
