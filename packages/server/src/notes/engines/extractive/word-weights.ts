/**
 * How often a word, said in a visit, ends up in the clinician's note: for each word of the engine's
 * candidate statements on the ACI-Bench training split (CC BY 4.0, Yim et al. 2023), the share of
 * its occurrences whose visit note contains it, smoothed toward the overall rate (`prior`) with 3
 * pseudo-counts. Words seen fewer than 3 times or in fewer than 2 visits, and numbers (scored
 * separately), take the rate of such rare words (`rare`). Statistics, not text of the data set:
 * models/notes/word-weights.json, built by `npm run build:notes-model` (see models/manifest.json).
 */
import { readFileSync } from 'node:fs';

import { modelPath } from '../../../model-files.js';

export interface WordWeightsModel {
  /** Training visits the rates were learned from. */
  visits: number;
  prior: number;
  rare: number;
  weights: Record<string, number>;
}

export const WORD_WEIGHTS_FILE = modelPath('notes', 'word-weights.json');

let loaded: { weights: Map<string, number>; rare: number } | undefined;

/**
 * Read on first use, not on import: the model's builder runs the engine's candidate statements
 * (which do not depend on the rates) before the file exists.
 */
function model(): { weights: Map<string, number>; rare: number } {
  if (loaded === undefined) {
    const { weights, rare } = JSON.parse(readFileSync(WORD_WEIGHTS_FILE, 'utf8')) as WordWeightsModel;
    // A Map, not the parsed object: a word such as "constructor" must not find Object's prototype.
    loaded = { weights: new Map(Object.entries(weights)), rare };
  }
  return loaded;
}

/** The note rate of a lower-case word. */
export function wordWeight(word: string): number {
  const { weights, rare } = model();
  return weights.get(word) ?? rare;
}
