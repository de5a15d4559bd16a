import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  lcsLength,
  lcsReferenceIndexes,
  rouge1,
  rouge2,
  rougeL,
  rougeLsum,
  rougeScores,
  tokenize,
  unionLcs,
} from './rouge.js';

describe('tokenize (rouge_score default tokenizer, no stemming)', () => {
  it('lower-cases and keeps runs of a-z and 0-9 only', () => {
    expect(tokenize("I'm 2.5mg B.I.D.")).toEqual(['i', 'm', '2', '5mg', 'b', 'i', 'd']);
  });

  it('treats accented letters, punctuation and line breaks as separators, and does not stem', () => {
    expect(tokenize('Café—running\n\tBP 120/80, HbA1c')).toEqual(['caf', 'running', 'bp', '120', '80', 'hba1c']);
    expect(tokenize(' ... ')).toEqual([]);
  });
});

describe('ROUGE-N', () => {
  it('is 1 for identical texts and 0 for disjoint ones', () => {
    const text = 'The patient denies chest pain.';
    for (const score of [rouge1(text, text), rouge2(text, text)])
      expect(score).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(rouge1('alpha beta', 'gamma delta').f1).toBe(0);
    expect(rouge2('alpha beta', 'gamma delta').f1).toBe(0);
  });

  it('counts clipped bigram overlap: a worked ROUGE-2 example', () => {
    // Reference bigrams: the cat, cat sat, sat on, on the, the mat (5).
    // Prediction bigrams: the cat, cat on, on the, the mat (4). Shared: the cat, on the, the mat (3).
    const score = rouge2('the cat sat on the mat', 'The cat on the mat.');
    expect(score.precision).toBe(3 / 4);
    expect(score.recall).toBe(3 / 5);
    expect(score.f1).toBeCloseTo((2 * 0.75 * 0.6) / (0.75 + 0.6), 15);
  });

  it('clips repeated n-grams to the reference count', () => {
    // Unigrams: prediction "the" ×2 against reference "the" ×3; bigram "the the" ×1 against ×2.
    expect(rouge1('the the the', 'the the')).toEqual({ precision: 1, recall: 2 / 3, f1: 0.8 });
    expect(rouge2('the the the', 'the the')).toEqual({ precision: 1, recall: 1 / 2, f1: 2 / 3 });
  });

  it('scores 0 for an empty prediction or reference, as rouge_score does', () => {
    for (const [reference, prediction] of [
      ['', 'some words'],
      ['some words', ''],
      ['', ''],
      ['...', 'words'],
    ] as const) {
      const scores = rougeScores(reference, prediction);
      for (const score of Object.values(scores)) expect(score).toEqual({ precision: 0, recall: 0, f1: 0 });
    }
    // A one-token text has no bigram: ROUGE-2 is 0 even against itself.
    expect(rouge2('pain', 'pain').f1).toBe(0);
  });
});

describe('ROUGE-L', () => {
  it('uses the longest common subsequence over the whole token sequence', () => {
    // LCS of "police killed the gunman" and "the gunman police killed" has 2 tokens.
    expect(lcsLength(['police', 'killed', 'the', 'gunman'], ['the', 'gunman', 'police', 'killed'])).toBe(2);
    expect(rougeL('police killed the gunman', 'the gunman police killed')).toEqual({
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
    });
    // "a b c d e f" vs "a c b d f": LCS a b d f (or a c d f) = 4; P = 4/5, R = 4/6.
    const score = rougeL('a b c d e f', 'a c b d f');
    expect(score.precision).toBe(4 / 5);
    expect(score.recall).toBe(4 / 6);
  });

  it('ignores line breaks (they are only separators)', () => {
    expect(rougeL('a b\nc d', 'a b c d').f1).toBe(1);
  });
});

describe('ROUGE-Lsum (summary-level union LCS over lines)', () => {
  it('reads back the same LCS as rouge_score when several are equally long', () => {
    // "a b" vs "b a": both "a" and "b" are LCSs; the backtrack keeps the reference's "a".
    expect(lcsReferenceIndexes(['a', 'b'], ['b', 'a'])).toEqual([0]);
    expect(lcsReferenceIndexes(['x', 'a', 'y', 'b'], ['a', 'b'])).toEqual([1, 3]);
    expect(lcsReferenceIndexes(['a'], [])).toEqual([]);
  });

  it('unions the LCS of one reference sentence with each candidate sentence (ROUGE paper 3.2)', () => {
    // r = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5: LCSs w1 w2 and w1 w3 w5; union w1 w2 w3 w5.
    const r = ['w1', 'w2', 'w3', 'w4', 'w5'];
    expect(
      unionLcs(r, [
        ['w1', 'w2', 'w6', 'w7', 'w8'],
        ['w1', 'w3', 'w8', 'w9', 'w5'],
      ]),
    ).toEqual(['w1', 'w2', 'w3', 'w5']);
  });

  it('differs from plain ROUGE-L when the candidate lines are out of order', () => {
    const reference = 'w1 w2 w3 w4 w5';
    const prediction = 'w1 w3 w8 w9 w5\nw1 w2 w6 w7 w8';
    // Union LCS hits 4 of the reference's 5 tokens; the candidate has 10: P = 0.4, R = 0.8.
    const lsum = rougeLsum(reference, prediction);
    expect(lsum.precision).toBe(0.4);
    expect(lsum.recall).toBe(0.8);
    expect(lsum.f1).toBeCloseTo(16 / 30, 15);
    // The plain LCS of the two token sequences is only w1 w3 w5: P = 3/10, R = 3/5.
    const plain = rougeL(reference, prediction);
    expect(plain.precision).toBe(0.3);
    expect(plain.recall).toBe(0.6);
    expect(plain.f1).toBeCloseTo(0.4, 15);
  });

  it('counts a candidate token for at most one reference occurrence', () => {
    // Each reference line's union LCS is "a b", but the candidate has one "a" and one "b": 2 hits.
    expect(rougeLsum('a b\na b', 'a b')).toEqual({ precision: 1, recall: 0.5, f1: 2 / 3 });
  });

  it('drops empty lines, tokenizes each line on its own, and is 0 for empty sides', () => {
    expect(rougeLsum('a b\n\n\nc', 'a b\nc\n')).toEqual({ precision: 1, recall: 1, f1: 1 });
    // Lines are not joined: "ab" is one token, "a" + "b" on two lines are two.
    expect(rougeLsum('ab', 'a\nb').f1).toBe(0);
    expect(rougeLsum('\n\n', 'a').f1).toBe(0);
    expect(rougeLsum('a', ' \n . ').f1).toBe(0);
  });

  it('equals ROUGE-L for single-line texts', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const line = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(line, line, (reference, prediction) => {
        expect(rougeLsum(reference, prediction)).toEqual(rougeL(reference, prediction));
      }),
    );
  });
});

describe('all scores', () => {
  it('are 1 for identical multi-line texts', () => {
    const note = 'CHIEF COMPLAINT\n\nKnee pain.\n\nPLAN\n\nIce, rest and ibuprofen 400 mg.';
    for (const score of Object.values(rougeScores(note, note)))
      expect(score).toEqual({ precision: 1, recall: 1, f1: 1 });
  });

  it('have an F1 that does not depend on which side is the reference, except ROUGE-Lsum', () => {
    // The union LCS is taken per reference sentence, so ROUGE-Lsum is not symmetric:
    expect(rougeLsum('d\nd c', 'c d').f1).not.toBe(rougeLsum('c d', 'd\nd c').f1);
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', '\n', '.'), { maxLength: 20 })
      .map((pieces) => pieces.join(' '));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const forward = rougeScores(a, b);
        const backward = rougeScores(b, a);
        for (const type of ['rouge1', 'rouge2', 'rougeL'] as const) {
          expect(forward[type].f1).toBeCloseTo(backward[type].f1, 12);
          expect(forward[type].precision).toBeCloseTo(backward[type].recall, 12);
        }
      }),
    );
  });
});
