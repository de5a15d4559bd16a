/**
 * Builds models/notes/word-weights.json, the extractive engine's word rates, from the ACI-Bench train
 * split with the engine's own candidate statements. Deterministic: the same split and engine give
 * the same bytes.
 */
import { readFileSync } from 'node:fs';

import type { WordWeightsModel } from '@chartwright/server/internal/notes/engines/extractive/word-weights.js';

import { learnWordWeights } from './learn-weights.js';

const round = (value: number): number => Math.round(value * 100) / 100;

export function buildWordWeights(trainPath: string): WordWeightsModel {
  const records = readFileSync(trainPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { dialogue: string; note: string });
  const learned = learnWordWeights(records);
  return {
    visits: records.length,
    prior: round(learned.prior),
    rare: round(learned.rare),
    weights: learned.weights,
  };
}

/** The file's bytes: one word per line, so a rebuild's diff reads word by word. */
export function formatWordWeights(model: WordWeightsModel): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}
