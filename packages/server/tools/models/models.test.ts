import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { modelPath } from '@chartwright/server/internal/model-files.js';
import { WORD_WEIGHTS_FILE } from '@chartwright/server/internal/notes/engines/extractive/word-weights.js';
import { PUNCTUATION_MODEL_FILE } from '@chartwright/server/internal/text/punctuation/hidden-event-model.js';
import { describe, expect, it } from 'vitest';

import { buildWordWeights, formatWordWeights } from '../notes-model/word-weights.js';
import { buildPunctuationModel, formatPunctuationModel } from '../punctuation-model/build.js';
import { ACI_BENCH_TRAIN, missingDatasets, skipReason } from '../shared/datasets.js';
import { readManifest, sha256 } from './manifest.js';

/** Every file under models/ but the manifest itself and the folders' READMEs. */
function modelFiles(): string[] {
  const root = modelPath();
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'README.md' && entry.name !== 'manifest.json')
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe('models/manifest.json', () => {
  const models = Object.values(readManifest());

  it('lists every shipped model file, with the checksum of its bytes', () => {
    const listed = models.flatMap((model) => Object.keys(model.files).map((file) => join(model.directory, file)));
    expect(listed.sort()).toEqual(modelFiles());
    for (const model of models) {
      for (const [file, digest] of Object.entries(model.files)) {
        expect(sha256(readFileSync(modelPath(model.directory, file))), file).toBe(digest);
      }
    }
  });

  it('names the command and builder that make each model, and what it was made from', () => {
    for (const model of models) {
      expect(model.build).toMatch(/^npm run build:[a-z-]+$/);
      expect(model.builder).toMatch(/^packages\/server\/tools\//);
      expect(model.sources.length).toBeGreaterThan(0);
      for (const source of model.sources) expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

const missing = missingDatasets([ACI_BENCH_TRAIN]);

describe.skipIf(missing.length > 0)(`the notes word rates${skipReason(missing)}`, () => {
  it('are what their builder makes from the train split the manifest names', () => {
    const entry = readManifest()['notes-word-weights'];
    expect(entry.sources[0]?.sha256).toBe(sha256(readFileSync(ACI_BENCH_TRAIN)));
    expect(formatWordWeights(buildWordWeights(ACI_BENCH_TRAIN))).toBe(readFileSync(WORD_WEIGHTS_FILE, 'utf8'));
  });
});

describe.skipIf(missing.length > 0)(`the punctuation model${skipReason(missing)}`, () => {
  it('is what its builder makes from the train split the manifest names', () => {
    const entry = readManifest()['text-punctuation'];
    expect(entry.sources[0]?.sha256).toBe(sha256(readFileSync(ACI_BENCH_TRAIN)));
    expect(formatPunctuationModel(buildPunctuationModel(ACI_BENCH_TRAIN))).toBe(
      readFileSync(PUNCTUATION_MODEL_FILE, 'utf8'),
    );
  });
});
