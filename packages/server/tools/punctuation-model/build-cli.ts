/**
 * `npm run build:punctuation-model -- [--train <train.jsonl>] [--out <dir>]`: rebuilds the model
 * that places sentence ends in recognizer text (models/text/punctuation.json) from the ACI-Bench
 * train split's punctuated dialogues. Runs from the tools' build:
 * `node packages/server/tools-dist/punctuation-model/build-cli.js`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';
import { PUNCTUATION_MODEL_FILE } from '@chartwright/server/internal/text/punctuation/hidden-event-model.js';

import { fileDigests, recordModel, sha256 } from '../models/manifest.js';
import { ACI_BENCH_TRAIN } from '../shared/datasets.js';
import { buildPunctuationModel, formatPunctuationModel } from './build.js';

const SHIPPED = dirname(PUNCTUATION_MODEL_FILE);
const FILE = 'punctuation.json';

export const USAGE = `Usage: npm run build:punctuation-model -- [--train <train.jsonl>] [--out <dir>]

Counts where sentences end in the ACI-Bench train split's punctuated dialogues (never the valid
split, which measures the notes written from recognizer text) and writes ${FILE}.

  --train <file>   train split, JSON Lines (default: ${ACI_BENCH_TRAIN})
  --out <dir>      output directory (default: ${SHIPPED}, recorded in models/manifest.json)`;

export function parseArguments(argv: readonly string[]): { trainPath: string; outputDirectory: string } | 'help' {
  const options = { trainPath: ACI_BENCH_TRAIN, outputDirectory: SHIPPED };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument === '--help' || argument === '-h') return 'help';
    if (argument === '--train') options.trainPath = optionValue(argv, index++);
    else if (argument === '--out') options.outputDirectory = optionValue(argv, index++);
    else throw new UsageError(`unknown option ${argument}`);
  }
  if (/(^|\/)valid\.jsonl$/.test(options.trainPath)) {
    throw new UsageError('the valid split measures the notes; build from the train split');
  }
  return options;
}

function main(argv: readonly string[]): number {
  let options;
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`build:punctuation-model: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const model = buildPunctuationModel(options.trainPath);
  mkdirSync(options.outputDirectory, { recursive: true });
  writeFileSync(join(options.outputDirectory, FILE), formatPunctuationModel(model));
  if (resolve(options.outputDirectory) === resolve(SHIPPED)) {
    recordModel('text-punctuation', {
      what: 'Where sentences end in recognizer text: the display text and the note parser',
      directory: 'text',
      build: 'npm run build:punctuation-model',
      builder: 'packages/server/tools/punctuation-model',
      sources: [
        {
          name: 'ACI-Bench train split (CC BY 4.0)',
          file: 'aci-bench/train.jsonl',
          sha256: sha256(readFileSync(options.trainPath)),
        },
      ],
      files: fileDigests(SHIPPED, [FILE]),
    });
  }
  process.stdout.write(
    `built ${join(options.outputDirectory, FILE)}: ${Object.keys(model.ngrams).length} n-grams from ${model.trainedOn.dialogues} dialogues (${model.trainedOn.words} words), end bonus ${model.endBonus}\n`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
