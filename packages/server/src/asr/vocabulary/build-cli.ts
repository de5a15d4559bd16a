/**
 * `npm run build:asr-vocabulary -- [--train <train.jsonl>] [--out <dir>] [options]`: rebuilds the
 * clinical vocabulary shipped in packages/server/models/clinical/. Runs from the build:
 * `node packages/server/dist/asr/vocabulary/build-cli.js`. The defaults are the measured choice
 * (docs/realtime.md, "Clinical vocabulary").
 */
import { fileURLToPath } from 'node:url';

import { DEFAULT_OPTIONS } from '../pocketsphinx/config.js';
import { buildClinicalVocabulary, type BuildOptions } from './build.js';
import { CLINICAL_DIRECTORY } from './vocabularies.js';
import { optionValue, UsageError } from '../../cli/usage.js';

/** The train split beside the repository (../shared/data), as the note benchmarks read it. */
export const DEFAULT_TRAIN = fileURLToPath(
  new URL('../../../../../../shared/data/aci-bench/train.jsonl', import.meta.url),
);

export const DEFAULTS: Omit<BuildOptions, 'log'> = {
  trainPath: DEFAULT_TRAIN,
  stockDirectory: DEFAULT_OPTIONS.modelDirectory,
  outputDirectory: CLINICAL_DIRECTORY,
  includeNotes: false,
  clinicalWeight: 0.6,
  stockWords: 30_000,
  pruneThreshold: 1e-8,
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
  --prune <threshold>   relative-entropy pruning threshold, 0 = none (default: ${DEFAULTS.pruneThreshold})`;

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
      default:
        throw new UsageError(`unknown option ${argument}`);
    }
  }
  if (/(^|\/)valid\.jsonl$/.test(options.trainPath)) {
    throw new UsageError('the valid split measures the vocabulary; build from the train split');
  }
  return options;
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
  process.stdout.write(
    `built ${options.outputDirectory}: ${summary.words} words, ${summary.ngrams.join(' / ')} n-grams ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
