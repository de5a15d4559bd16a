import { describe, expect, it } from 'vitest';

import { logProbability, ngramCount, packKey, unpackKey, type BackoffModel } from './backoff-model.js';
import { interpolate, limitVocabulary, prune } from './combine.js';
import { conditionalMass, histories, ids } from './fixtures.js';
import { estimateKneserNey } from './kneser-ney.js';

const sentences = (text: string): string[][] => text.split('\n').map((line) => line.trim().split(' '));

const CLINICAL = estimateKneserNey(
  sentences(`the patient takes digoxin daily
    the patient has a torn meniscus
    she takes metformin twice a day
    the meniscus is torn
    he takes lisinopril daily`),
);
const GENERAL = estimateKneserNey(
  sentences(`the weather is nice today
    she takes the bus every day
    the patient man waits
    he has a nice day
    the bus is late today`),
);

function expectDistributions(model: BackoffModel): void {
  const end = model.wordIds.get('</s>');
  for (const history of histories(model)) {
    if (history[history.length - 1] === end) continue;
    expect(conditionalMass(model, history)).toBeCloseTo(1, 6);
  }
}

/** p(word | history) of a model for words given as text (a history word it lacks cuts the history). */
function probability(model: BackoffModel, history: string, word: string): number {
  const id = model.wordIds.get(word);
  if (id === undefined) return 0;
  const known: number[] = [];
  for (const w of history === '' ? [] : history.split(' ')) {
    const h = model.wordIds.get(w);
    if (h === undefined) known.length = 0;
    else known.push(h);
  }
  return 10 ** logProbability(model, known, id);
}

describe('interpolation', () => {
  const mixed = interpolate(CLINICAL, GENERAL, 0.3);

  it('covers both vocabularies and every n-gram of either model', () => {
    expect(new Set(mixed.words)).toEqual(new Set([...CLINICAL.words, ...GENERAL.words]));
    for (const source of [CLINICAL, GENERAL]) {
      source.tables.forEach((table, index) => {
        for (const key of table.keys) {
          const words = unpackKey(key, index + 1).map((id) => source.words[id] ?? '');
          expect(
            mixed.tables[index]?.rows.has(ids(mixed, words.join(' ')).reduce((k, id) => k * 2 ** 17 + id, 0)),
          ).toBe(true);
        }
      });
    }
  });

  it('gives each explicit n-gram the weighted sum of both models’ probabilities', () => {
    for (const [history, word] of [
      ['the patient', 'takes'],
      ['takes', 'the'],
      ['', 'meniscus'],
      ['the', 'weather'],
      ['she takes', 'metformin'],
    ] as const) {
      const expected = 0.3 * probability(CLINICAL, history, word) + 0.7 * probability(GENERAL, history, word);
      expect(probability(mixed, history, word)).toBeCloseTo(expected, 12);
    }
  });

  it('stays a probability distribution after every history', () => {
    expectDistributions(mixed);
  });

  it('refuses a weight outside 0 to 1', () => {
    expect(() => interpolate(CLINICAL, GENERAL, 1.5)).toThrow(RangeError);
  });
});

describe('limiting the vocabulary', () => {
  it('drops the other words and renormalises', () => {
    const limited = limitVocabulary(GENERAL, new Set(['the', 'bus', 'is', 'late', 'today', 'nice']));
    expect([...limited.words].sort()).toEqual(['</s>', '<s>', 'bus', 'is', 'late', 'nice', 'the', 'today']);
    expect(limited.wordIds.has('weather')).toBe(false);
    expectDistributions(limited);
  });
});

describe('relative-entropy pruning', () => {
  it('removes nothing below a threshold no change falls under', () => {
    const model = interpolate(CLINICAL, GENERAL, 0.5);
    const before = ngramCount(model);
    expect(prune(model, -1)).toEqual([0, 0, 0]);
    expect(ngramCount(model)).toEqual(before);
  });

  it('removes the n-grams that matter least, keeps contexts, and stays normalised', () => {
    const model = interpolate(CLINICAL, GENERAL, 0.5);
    const before = ngramCount(model);
    const removed = prune(model, 1e-3);
    expect(removed[0]).toBe(0);
    expect((removed[1] ?? 0) + (removed[2] ?? 0)).toBeGreaterThan(0);
    expect(ngramCount(model)).toEqual(before.map((count, index) => count - (removed[index] ?? 0)));
    // Every surviving trigram's context is still a bigram.
    for (const key of model.tables[2]?.keys ?? []) {
      const [a = 0, b = 0] = unpackKey(key, 3);
      expect(model.tables[1]?.rows.has(packKey([a, b]))).toBe(true);
    }
    expectDistributions(model);
  });
});
