import { describe, expect, it } from 'vitest';

import { deltaBic, frameStats, SpeakerClusters } from './speaker-clusters.js';
import { CEPSTRA } from './speaker-features.js';

/** Frames of a voice: unit-variance Gaussian cepstra around `mean` (a fixed seed, so the same each run). */
function voiceFrames(count: number, mean: number, seed: number): Float32Array[] {
  let state = seed;
  const uniform = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return (state + 1) / 2_147_483_649;
  };
  const gaussian = (): number => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return Array.from({ length: count }, () => Float32Array.from({ length: CEPSTRA }, () => mean + gaussian()));
}

describe('SpeakerClusters', () => {
  it('opens a voice for another speaker, however short past the minimum', () => {
    const clusters = new SpeakerClusters();
    expect(clusters.assign(frameStats(voiceFrames(3_600, 0, 1)))).toBe(0);
    expect(clusters.assign(frameStats(voiceFrames(300, 1, 2)))).toBe(1);
    expect(clusters.assign(frameStats(voiceFrames(400, 0, 3)))).toBe(0);
    expect(clusters.assign(frameStats(voiceFrames(400, 1, 4)))).toBe(1);
  });

  it('keeps one long utterance of the same speaker, a little off their usual sound, in their voice', () => {
    const clinician = frameStats(voiceFrames(3_600, 0, 1));
    // A 15 s monologue in another register: one Gaussian is the worse fit by a hair (ΔBIC > 0), a
    // few hundredths per frame, where another speaker differs by tenths.
    const monologue = frameStats(voiceFrames(1_500, 0.25, 5));
    const score = deltaBic(clinician, monologue);
    expect(score).toBeGreaterThan(0);
    expect(score / (clinician.frames + monologue.frames)).toBeLessThan(0.05);
    const clusters = new SpeakerClusters();
    clusters.assign(clinician);
    expect(clusters.assign(monologue)).toBe(0);
    expect(clusters.assign(frameStats(voiceFrames(300, 1, 6)))).toBe(1);
  });

  it('asks more of a new voice while the closest voice is under 3 s of voiced frames', () => {
    const opening = frameStats(voiceFrames(250, 0, 11));
    // The same speaker's next, longer utterance: against a voice this small it scores 0.05–0.1 per frame.
    const next = frameStats(voiceFrames(550, 0.55, 12));
    const perFrame = deltaBic(opening, next) / (opening.frames + next.frames);
    expect(perFrame).toBeGreaterThan(0.05);
    expect(perFrame).toBeLessThan(0.1);
    const clusters = new SpeakerClusters();
    clusters.assign(opening);
    expect(clusters.assign(next)).toBe(0);
    expect(clusters.assign(frameStats(voiceFrames(300, 1.5, 13)))).toBe(1);
  });
});
