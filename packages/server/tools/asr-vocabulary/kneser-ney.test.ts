import { describe, expect, it } from 'vitest';

import { LOG_ZERO, logProbability, ngramCount } from './backoff-model.js';
import { conditionalMass, histories, ids } from './fixtures.js';
import { discountsFrom, estimateKneserNey } from './kneser-ney.js';

const CORPUS = [
  'the knee hurts',
  'the knee is swollen',
  'my knee hurts when i walk',
  'the pain is better',
  'my back hurts',
  'the knee is better',
].map((sentence) => sentence.split(' '));

describe('Kneser-Ney estimation', () => {
  const model = estimateKneserNey(CORPUS);
  const p = (history: string, word: string): number =>
    logProbability(model, history === '' ? [] : ids(model, history), ids(model, word)[0] ?? -1);

  it('keeps every word of the corpus and every n-gram it saw', () => {
    expect(model.words).toEqual(expect.arrayContaining(['<s>', '</s>', 'knee', 'swollen', 'walk']));
    expect(model.words).toHaveLength(14);
    // Bigrams and trigrams are the distinct ones in the padded sentences.
    expect(ngramCount(model)).toEqual([14, 19, 20]);
  });

  it('gives a probability distribution after every history', () => {
    for (const history of histories(model)) {
      if (history.length > 0 && model.words[history[history.length - 1] ?? 0] === '</s>') continue;
      expect(conditionalMass(model, history)).toBeCloseTo(1, 9);
    }
  });

  it('prefers what it saw, and never predicts the sentence start', () => {
    expect(p('the knee', 'hurts')).toBeGreaterThan(p('the knee', 'walk'));
    expect(p('knee', 'hurts')).toBeGreaterThan(p('knee', 'back'));
    // "hurts" follows three different words, "swollen" one: continuation counts rank them.
    expect(p('', 'hurts')).toBeGreaterThan(p('', 'swollen'));
    expect(p('', '<s>')).toBe(LOG_ZERO);
  });

  it('estimates discounts from counts of counts, with a fallback for tiny corpora', () => {
    const counts = [...Array(40).fill(1), ...Array(20).fill(2), ...Array(10).fill(3), ...Array(5).fill(4)] as number[];
    const discounts = discountsFrom(counts);
    // Y = 40 / (40 + 2·20) = 0.5; D1 = 1 − 2Y·20/40 = 0.5; D2 = 2 − 3Y·10/20 = 1.25; D3+ = 3 − 4Y·5/10 = 2
    expect(discounts.one).toBeCloseTo(0.5);
    expect(discounts.two).toBeCloseTo(1.25);
    expect(discounts.threePlus).toBeCloseTo(2);
    expect(discountsFrom([1, 1, 2])).toEqual({ one: 0.5, two: 1, threePlus: 1.5 });
  });
});
