import { readFileSync } from 'node:fs';

import { clinicalFiles } from '@chartwright/server/internal/asr/vocabularies.js';
import { describe, expect, it } from 'vitest';

import { logProbability, ngramCount } from './backoff-model.js';
import { conditionalMass, histories, ids } from './fixtures.js';
import { readSphinxTrie, TrieFormatError } from './sphinx-trie.js';

/** The shipped clinical model: a trie sphinx_lm_convert wrote, so it needs no Debian package to read. */
const files = clinicalFiles();
const manifest = JSON.parse(readFileSync(files.manifest, 'utf8')) as { ngrams: number[] };

describe('PocketSphinx trie models', () => {
  const model = readSphinxTrie(readFileSync(files.lm));

  it('reads every word and n-gram the build wrote', () => {
    const [words = 0, bigrams = 0, trigrams = 0] = manifest.ngrams;
    const counts = ngramCount(model);
    expect(counts[0]).toBe(words);
    // sphinx_lm_convert adds a bigram (with its backoff probability) for each trigram whose suffix was
    // pruned, so that every trigram is reachable in the trie.
    expect(counts[1]).toBeGreaterThanOrEqual(bigrams);
    expect(counts[1]).toBeLessThan(bigrams * 1.1);
    expect(Math.abs((counts[2] ?? 0) - trigrams)).toBeLessThanOrEqual(trigrams * 0.001);
    expect(model.words).toEqual(expect.arrayContaining(['<s>', '</s>', 'digoxin', 'meniscus', 'metformin']));
  });

  // Sums over the whole vocabulary for each sampled history: seconds of CPU, more on a busy machine.
  it('reads probabilities that still form distributions (within the 16-bit quantisation)', { timeout: 120_000 }, () => {
    const sample = histories(model).filter((_, index) => index % 4000 === 0);
    expect(sample.length).toBeGreaterThan(30);
    const end = model.wordIds.get('</s>');
    for (const history of sample) {
      if (history[history.length - 1] === end) continue;
      // sphinx_lm_convert quantises bigram and trigram probabilities into 65,536 bins of equal
      // population, so a near-certain continuation ("able to") can lose several percent.
      expect(Math.abs(conditionalMass(model, history) - 1)).toBeLessThan(0.1);
    }
  });

  it('puts clinical words where clinicians say them', () => {
    const [metformin = -1, lisinopril = -1] = ids(model, 'metformin lisinopril');
    expect(logProbability(model, ids(model, 'on the'), metformin)).toBeGreaterThan(
      logProbability(model, [], metformin) + 1,
    );
    expect(logProbability(model, ids(model, 'continue your'), lisinopril)).toBeGreaterThan(
      logProbability(model, ids(model, 'continue your'), metformin),
    );
  });

  it('refuses a file of another format', () => {
    expect(() => readSphinxTrie(Buffer.from('\\data\\\nngram 1=1\n'))).toThrow(TrieFormatError);
  });
});
