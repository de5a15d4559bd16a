import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_OPTIONS } from '@chartwright/server/internal/asr/pocketsphinx/config.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { describe, expect, it } from 'vitest';

import { ngramCount } from './backoff-model.js';
import { conditionalMass, ids } from './fixtures.js';
import { readSphinxTrie } from './sphinx-trie.js';

/** Reads Debian's stock en-us model (pocketsphinx-en-us); skipped locally without it, failing in CI. */
const missing = await missingSpeechTools();

describe.skipIf(missing.length > 0)('the stock en-us model', () => {
  it('reads what its trie really holds, which sphinx_lm_convert cannot write as ARPA', () => {
    const model = readSphinxTrie(readFileSync(join(DEFAULT_OPTIONS.modelDirectory, 'en-us.lm.bin')));
    // The header claims 2,051,547 bigrams; the trie holds six fewer (cmusphinx/pocketsphinx#502).
    expect(ngramCount(model)).toEqual([72547, 2051541, 1669625]);
    for (const history of ['', 'the', 'go forward', 'i have']) {
      const mass = conditionalMass(model, history === '' ? [] : ids(model, history));
      expect(Math.abs(mass - 1)).toBeLessThan(0.02);
    }
  }, 60_000);
});
