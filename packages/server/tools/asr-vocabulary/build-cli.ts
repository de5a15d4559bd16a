/**
 * `npm run build:asr-vocabulary -- [--train <train.jsonl>] [--out <dir>] [options]`: rebuilds the
 * clinical vocabulary shipped in packages/server/models/clinical/. Runs from the tools' build:
 * `node packages/server/tools-dist/asr-vocabulary/build-cli.js`. The defaults are the measured choice
 * (docs/realtime.md, "Clinical vocabulary").
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DEFAULT_OPTIONS } from '@chartwright/server/internal/asr/pocketsphinx/config.js';
import { CLINICAL_DIRECTORY, clinicalFiles } from '@chartwright/server/internal/asr/vocabularies.js';
import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';

import { fileDigests, recordModel, sha256 } from '../models/manifest.js';
import { ACI_BENCH_TRAIN } from '../shared/datasets.js';
import { buildClinicalVocabulary, type BuildOptions } from './build.js';

export const DEFAULTS: Omit<BuildOptions, 'log'> = {
  trainPath: ACI_BENCH_TRAIN,
  stockDirectory: DEFAULT_OPTIONS.modelDirectory,
  outputDirectory: CLINICAL_DIRECTORY,
  includeNotes: false,
  // Chosen on real read speech and flite dialogues together (docs/realtime.md, "Clinical vocabulary").
  clinicalWeight: 0.4,
  stockWords: 0,
  pruneThreshold: 1e-8,
  // 0.15 lost no real read sentence and fewer flite words; 0.25 cost real sentences (docs/realtime.md).
  fillerRate: 0.15,
};

export const USAGE = `Usage: npm run build:asr-vocabulary -- [options]

Builds the clinical language model and pronunciation dictionary from the ACI-Bench train split
(never the valid split, which measures it) and the stock en-us model.

  --train <file>        train split, JSON Lines (default: ${DEFAULTS.trainPath})
  --out <dir>           output directory (default: ${DEFAULTS.outputDirectory})
  --stock <dir>         stock model directory (default: ${DEFAULTS.stockDirectory})
  --notes               also learn from the train notes (default: ${DEFAULTS.includeNotes ? 'on' : 'off'})
  --no-notes            dialogues only
  --weight <0..1>       weight of the clinical model; 1 = clinical alone (default: ${DEFAULTS.clinicalWeight})
  --stock-words <n>     keep the n most probable stock words, 0 = all (default: ${DEFAULTS.stockWords})
  --prune <threshold>   relative-entropy pruning threshold, 0 = none (default: ${DEFAULTS.pruneThreshold})
  --fillers <0..1>      share of the gaps between training words given an "um" or "uh" (default: ${DEFAULTS.fillerRate})`;

export function parseArguments(argv: readonly string[]): Omit<BuildOptions, 'log'> | 'help' {
  const options = { ...DEFAULTS };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const value = (): string => optionValue(argv, index++);
    const number = (min: number, max: number): number => {
      const text = value();
      const parsed = Number(text);
      if (text.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max) {
        throw new UsageError(`${argument} must be a number from ${min} to ${max}`);
      }
      return parsed;
    };
    switch (argument) {
      case '--help':
      case '-h':
        return 'help';
      case '--train':
        options.trainPath = value();
        break;
      case '--out':
        options.outputDirectory = value();
        break;
      case '--stock':
        options.stockDirectory = value();
        break;
      case '--notes':
        options.includeNotes = true;
        break;
      case '--no-notes':
        options.includeNotes = false;
        break;
      case '--weight':
        options.clinicalWeight = number(0, 1);
        break;
      case '--stock-words':
        options.stockWords = Math.floor(number(0, 1e6));
        break;
      case '--prune':
        options.pruneThreshold = number(0, 1);
        break;
      case '--fillers':
        options.fillerRate = number(0, 1);
        break;
      default:
        throw new UsageError(`unknown option ${argument}`);
    }
  }
  if (/(^|\/)valid\.jsonl$/.test(options.trainPath)) {
    throw new UsageError('the valid split measures the vocabulary; build from the train split');
  }
  return options;
}

/** The files the builder writes, by name, as models/manifest.json lists them. */
const NAMES = clinicalFiles('');
export const VOCABULARY_FILES = [NAMES.lm, NAMES.dict, NAMES.additions, NAMES.manifest].map((file) => basename(file));

function recordVocabulary(options: Omit<BuildOptions, 'log'>): void {
  const digest = (file: string) => sha256(readFileSync(file));
  recordModel('clinical-vocabulary', {
    what: 'The PocketSphinx language model and pronunciation dictionary of ASR_VOCABULARY=clinical',
    directory: 'clinical',
    build: 'npm run build:asr-vocabulary',
    builder: 'packages/server/tools/asr-vocabulary',
    sources: [
      { name: 'ACI-Bench train split (CC BY 4.0)', file: 'aci-bench/train.jsonl', sha256: digest(options.trainPath) },
      { name: 'pocketsphinx-en-us: en-us.lm.bin', sha256: digest(join(options.stockDirectory, 'en-us.lm.bin')) },
      {
        name: 'pocketsphinx-en-us: cmudict-en-us.dict',
        sha256: digest(join(options.stockDirectory, 'cmudict-en-us.dict')),
      },
    ],
    files: fileDigests(CLINICAL_DIRECTORY, VOCABULARY_FILES),
  });
}

function main(argv: readonly string[]): number {
  let options;
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`build:asr-vocabulary: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const summary = buildClinicalVocabulary({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  if (resolve(options.outputDirectory) === resolve(CLINICAL_DIRECTORY)) recordVocabulary(options);
  process.stdout.write(
    `built ${options.outputDirectory}: ${summary.words} words, ${summary.ngrams.join(' / ')} n-grams ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
