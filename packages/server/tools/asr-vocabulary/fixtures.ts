/** Test support for the vocabulary builder: small language models to check, and what building needs. */
import { execFileSync } from 'node:child_process';

import { missingSpeechTools } from '@chartwright/testing/speech.js';

import { logProbability, SENTENCE_START, unpackKey, type BackoffModel } from './backoff-model.js';

function converterInstalled(): boolean {
  try {
    execFileSync('sphinx_lm_convert', ['-help', 'yes'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The builder needs sphinxbase-utils besides the recognizer's packages and flite; CI may skip none. */
export async function missingVocabularyBuildTools(): Promise<string[]> {
  const missing = [
    ...(await missingSpeechTools()),
    ...(converterInstalled() ? [] : ['sphinx_lm_convert (sphinxbase-utils)']),
  ];
  if (missing.length > 0 && process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error(`vocabulary build tests may not be skipped in CI; missing: ${missing.join('; ')}`);
  }
  return missing;
}

/** Σ p(w | history) over every word the model can predict (all but <s>): 1 for a proper model. */
export function conditionalMass(model: BackoffModel, history: readonly number[]): number {
  const start = model.wordIds.get(SENTENCE_START);
  let total = 0;
  for (let word = 0; word < model.words.length; word++) {
    if (word !== start) total += 10 ** logProbability(model, history, word);
  }
  return total;
}

/** Every history the model conditions on explicitly: the empty one and each n-gram below the top order. */
export function histories(model: BackoffModel): number[][] {
  const found: number[][] = [[]];
  model.tables.slice(0, -1).forEach((table, index) => {
    for (const key of table.keys) found.push(unpackKey(key, index + 1));
  });
  return found;
}

export function ids(model: BackoffModel, words: string): number[] {
  return words.split(' ').map((word) => {
    const id = model.wordIds.get(word);
    if (id === undefined) throw new Error(`"${word}" is not in the model`);
    return id;
  });
}
