import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_OPTIONS } from '@chartwright/server/internal/asr/pocketsphinx/config.js';
import { PocketSphinxRecognizer } from '@chartwright/server/internal/asr/pocketsphinx/engine.js';
import { clinicalFiles } from '@chartwright/server/internal/asr/vocabularies.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildClinicalVocabulary } from './build.js';
import { missingVocabularyBuildTools } from './fixtures.js';
import { parseDictionary } from './pronunciations.js';
import { readSphinxTrie } from './sphinx-trie.js';

const missing = await missingVocabularyBuildTools();

/** A tiny train split written for this test, in ACI-Bench's shape. */
const TRAIN = [
  {
    id: 'T1',
    dialogue:
      '[doctor] hi , how is the knee ?\n[patient] it still hurts . i take 10 mg of digoxin .\n[doctor] okay . you have a torn meniscus .',
    note: 'CHIEF COMPLAINT\n\nKnee pain. Takes digoxin 10 mg daily.',
  },
  {
    id: 'T2',
    dialogue:
      '[doctor] are you taking the metformin ?\n[patient] yes , 500 mg twice a day .\n[doctor] good . keep taking it .',
    note: 'Metformin 500 mg twice daily.',
  },
];

describe.skipIf(missing.length > 0)('building a clinical vocabulary', () => {
  let directory: string;
  const log: string[] = [];

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'cw-vocabulary-test-'));
    writeFileSync(join(directory, 'train.jsonl'), TRAIN.map((record) => JSON.stringify(record)).join('\n'));
    buildClinicalVocabulary({
      trainPath: join(directory, 'train.jsonl'),
      stockDirectory: DEFAULT_OPTIONS.modelDirectory,
      // A directory that does not exist yet: the build creates it.
      outputDirectory: join(directory, 'clinical'),
      includeNotes: false,
      clinicalWeight: 1,
      stockWords: 0,
      pruneThreshold: 0,
      fillerRate: 0,
      log: (line) => log.push(line),
    });
  }, 60_000);

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('writes a model of the spoken-form dialogue, with a pronunciation for each word', () => {
    const files = clinicalFiles(join(directory, 'clinical'));
    const model = readSphinxTrie(readFileSync(files.lm));
    expect(model.words).toEqual(
      expect.arrayContaining(['digoxin', 'meniscus', 'ten', 'milligrams', 'five', 'hundred']),
    );
    // Dialogue only: note words (e.g. "complaint") and speaker tags stay out.
    expect(model.words).not.toContain('complaint');
    expect(model.words).not.toContain('doctor');
    const dictionary = parseDictionary(readFileSync(files.dict, 'utf8'));
    expect(model.words.filter((word) => !word.startsWith('<') && !dictionary.has(word))).toEqual([]);
    const additions = parseDictionary(readFileSync(files.additions, 'utf8'));
    expect([...additions.keys()].sort()).toEqual(['digoxin', 'meniscus', 'metformin']);
    const manifest = JSON.parse(readFileSync(files.manifest, 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ clinicalWeight: 1, includeNotes: false, addedPronunciations: 3 });
    expect(manifest['sourceSha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(log.some((line) => line.startsWith('clinical trigram model:'))).toBe(true);
  });

  it('produces files a decoder loads', async () => {
    const files = clinicalFiles(join(directory, 'clinical'));
    const recognizer = new PocketSphinxRecognizer({
      workers: 1,
      vocabulary: { lm: files.lm, dict: files.dict, args: [] },
    });
    try {
      await expect(recognizer.status()).resolves.toEqual({ available: true });
      await recognizer.warmUp();
      expect(recognizer.workerPids()).toHaveLength(1);
    } finally {
      await recognizer.close();
    }
  }, 30_000);
});
