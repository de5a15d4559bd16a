import { logProbability, SENTENCE_START, unpackKey, type BackoffModel } from '../asr/vocabulary/backoff-model.js';

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
