import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { DEFAULTS, VOCABULARY_FILES } from '../asr-vocabulary/build-cli.js';
import { buildClinicalVocabulary } from '../asr-vocabulary/build.js';
import { missingVocabularyBuildTools } from '../asr-vocabulary/fixtures.js';
import { ACI_BENCH_TRAIN, missingDatasets, skipReason } from '../shared/datasets.js';
import { fileDigests, readManifest } from './manifest.js';

const missing = [...(await missingVocabularyBuildTools()), ...missingDatasets([ACI_BENCH_TRAIN])];

describe.skipIf(missing.length > 0)(`the clinical vocabulary${skipReason(missing)}`, () => {
  const out = mkdtempSync(join(tmpdir(), 'cw-clinical-check-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  // A full build with the shipped settings: about 100 s and 2 GB on a 2-core machine.
  it('is what its builder makes from the train split and the stock model', { timeout: 600_000 }, () => {
    buildClinicalVocabulary({ ...DEFAULTS, outputDirectory: out, log: () => undefined });
    expect(fileDigests(out, VOCABULARY_FILES)).toEqual(readManifest()['clinical-vocabulary'].files);
  });
});
