import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { checkInstallation, decoderArgs, DEFAULT_OPTIONS } from './pocketsphinx/config.js';
import { CLINICAL_DIRECTORY, clinicalFiles, vocabularyFiles } from './vocabularies.js';

describe('ASR vocabularies', () => {
  it('ships the clinical vocabulary where both src/ and dist/ find it', () => {
    const { lm, dict, additions, manifest } = clinicalFiles();
    for (const file of [lm, dict, additions, manifest]) expect(existsSync(file)).toBe(true);
    expect(CLINICAL_DIRECTORY).toMatch(/\/packages\/server\/models\/clinical\/$/);
    // model-files.ts finds the models with one relative URL, from src/ and from dist/ alike.
    const fromDist = new URL('../models/', pathToFileURL('/app/packages/server/dist/model-files.js'));
    expect(fileURLToPath(fromDist)).toBe('/app/packages/server/models/');
  });

  it('decodes with the clinical model, dictionary and language weight by default', () => {
    const clinical = vocabularyFiles('clinical');
    expect(DEFAULT_OPTIONS.vocabulary).toEqual(clinical);
    const args = decoderArgs(DEFAULT_OPTIONS);
    expect(args[args.indexOf('-lm') + 1]).toBe(clinicalFiles().lm);
    expect(args[args.indexOf('-dict') + 1]).toBe(clinicalFiles().dict);
    expect(args[args.indexOf('-hmm') + 1]).toBe('/usr/share/pocketsphinx/model/en-us/en-us');
    expect(args[args.indexOf('-lw') + 1]).toBe('8');
    expect(args[args.indexOf('-bestpathlw') + 1]).toBe('10');
    expect(args[args.indexOf('-beam') + 1]).toBe('1e-60');
  });

  it('always takes the best path, and searches a second time only when asked', () => {
    const pairs = (args: string[]) => [args[args.indexOf('-fwdflat') + 1], args[args.indexOf('-bestpath') + 1]];
    expect(pairs(decoderArgs(DEFAULT_OPTIONS))).toEqual(['no', 'yes']);
    expect(pairs(decoderArgs({ ...DEFAULT_OPTIONS, secondPass: true }))).toEqual(['yes', 'yes']);
  });

  it('decodes with the stock files, at the library’s own language weight, for "stock"', () => {
    expect(vocabularyFiles('stock')).toBeNull();
    const args = decoderArgs({ ...DEFAULT_OPTIONS, vocabulary: vocabularyFiles('stock') });
    expect(args[args.indexOf('-lm') + 1]).toBe('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin');
    expect(args[args.indexOf('-dict') + 1]).toBe('/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict');
    expect(args).not.toContain('-lw');
    expect(args).not.toContain('-bestpathlw');
  });

  it('reports missing vocabulary files as an unavailable recognizer', () => {
    const status = checkInstallation({
      libraryPath: '/bin/sh',
      modelDirectory: DEFAULT_OPTIONS.modelDirectory,
      vocabulary: vocabularyFiles('clinical', '/nonexistent/clinical'),
    });
    expect(status.available).toBe(false);
    if (!status.available) expect(status.reason).toContain('/nonexistent/clinical/clinical.lm.bin');
  });
});
