/**
 * `npm run build:notes-model -- [--train <train.jsonl>] [--out <dir>]`: rebuilds the extractive note
 * engine's word rates (models/notes/word-weights.json) from the ACI-Bench train split. Run it after
 * changing how the engine cleans or rewrites statements. Runs from the tools' build:
 * `node packages/server/tools-dist/notes-model/build-cli.js`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';
import { WORD_WEIGHTS_FILE } from '@chartwright/server/internal/notes/engines/extractive/word-weights.js';

import { ACI_BENCH_TRAIN } from '../shared/datasets.js';
import { fileDigests, recordModel, sha256 } from '../models/manifest.js';
import { buildWordWeights, formatWordWeights } from './word-weights.js';

const SHIPPED = dirname(WORD_WEIGHTS_FILE);
const FILE = 'word-weights.json';

export const USAGE = `Usage: npm run build:notes-model -- [--train <train.jsonl>] [--out <dir>]

Learns the extractive engine's word rates from the ACI-Bench train split (never the valid split,
which measures the engine) and writes ${FILE}.

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
    throw new UsageError('the valid split measures the engine; build from the train split');
  }
  return options;
}

function main(argv: readonly string[]): number {
  let options;
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`build:notes-model: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const model = buildWordWeights(options.trainPath);
  mkdirSync(options.outputDirectory, { recursive: true });
  writeFileSync(join(options.outputDirectory, FILE), formatWordWeights(model));
  if (resolve(options.outputDirectory) === resolve(SHIPPED)) {
    recordModel('notes-word-weights', {
      what: 'The extractive note engine: how often each word said in a visit ends up in the note',
      directory: 'notes',
      build: 'npm run build:notes-model',
      builder: 'packages/server/tools/notes-model',
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
    `built ${join(options.outputDirectory, FILE)}: ${Object.keys(model.weights).length} words from ${model.visits} visits\n`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
