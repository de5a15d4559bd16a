/**
 * The cepstral mean a new stream starts from (models/asr/cepstral-prior.json, built by
 * packages/server/tools/asr-cepstral-prior from real recordings). The en-us model's own starting
 * mean comes from its training audio's level and channel; real microphones sit far from it, and a
 * stream's first words are heard against it until its first utterance ends.
 */
import { readFileSync } from 'node:fs';

import { modelPath } from '../../model-files.js';

/** c0–c12: the en-us model's cepstrum (feat.params: ceplen 13). */
export const CEPSTRUM_LENGTH = 13;

export const CEPSTRAL_PRIOR_FILE = modelPath('asr', 'cepstral-prior.json');

export interface CepstralPriorFile {
  /** How it was made, for the reader; the service reads `mean` only. */
  about: string;
  /** c0–c12 as PocketSphinx's front end computes them for the en-us model. */
  mean: number[];
}

export function readCepstralPrior(file: string = CEPSTRAL_PRIOR_FILE): readonly number[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CepstralPriorFile>;
  const { mean } = parsed;
  if (!Array.isArray(mean) || mean.length !== CEPSTRUM_LENGTH || !mean.every((value) => Number.isFinite(value))) {
    throw new Error(`${file}: "mean" must hold ${CEPSTRUM_LENGTH} numbers`);
  }
  return mean;
}
