/**
 * The command line of a model built from the ACI-Bench train split alone (the notes word rates,
 * the punctuation model): `--train <file>`, `--out <dir>`, `--help`; the valid split refused; the
 * manifest entry recorded when the file is written where the service reads it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';

import { ACI_BENCH_TRAIN } from '../shared/datasets.js';
import { fileDigests, recordModel, sha256, type ModelName } from './manifest.js';

export interface TrainSplitModel<T> {
  /** The npm script, without `npm run`. */
  command: string;
  name: ModelName;
  /** The manifest's `what`. */
  what: string;
  /** Where the service reads the file, and the manifest's folder for it. */
  shipped: string;
  directory: string;
  file: string;
  builder: string;
  /** What the model is, for the usage text: it follows "Learns" / "Counts" and ends before "from the train split". */
  purpose: string;
  /** What the valid split is kept for, for the refusal. */
  validMeasures: string;
  build: (trainPath: string) => T;
  format: (model: T) => string;
  summary: (model: T) => string;
}

export function trainSplitUsage(
  model: Pick<TrainSplitModel<unknown>, 'command' | 'purpose' | 'validMeasures' | 'file' | 'shipped'>,
): string {
  return `Usage: npm run ${model.command} -- [--train <train.jsonl>] [--out <dir>]

${model.purpose} from the ACI-Bench train split
(never the valid split, which measures ${model.validMeasures}) and writes ${model.file}.

  --train <file>   train split, JSON Lines (default: ${ACI_BENCH_TRAIN})
  --out <dir>      output directory (default: ${model.shipped}, recorded in models/manifest.json)`;
}

export function parseTrainSplitArguments(
  argv: readonly string[],
  model: Pick<TrainSplitModel<unknown>, 'shipped' | 'validMeasures'>,
): { trainPath: string; outputDirectory: string } | 'help' {
  const options = { trainPath: ACI_BENCH_TRAIN, outputDirectory: model.shipped };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument === '--help' || argument === '-h') return 'help';
    if (argument === '--train') options.trainPath = optionValue(argv, index++);
    else if (argument === '--out') options.outputDirectory = optionValue(argv, index++);
    else throw new UsageError(`unknown option ${argument}`);
  }
  if (/(^|\/)valid\.jsonl$/.test(options.trainPath)) {
    throw new UsageError(`the valid split measures ${model.validMeasures}; build from the train split`);
  }
  return options;
}

/** Runs the command: exit code 0, or 2 for a usage mistake. */
export function runTrainSplitBuild<T>(model: TrainSplitModel<T>, argv: readonly string[]): number {
  let options;
  try {
    options = parseTrainSplitArguments(argv, model);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${model.command}: ${error.message}\n\n${trainSplitUsage(model)}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${trainSplitUsage(model)}\n`);
    return 0;
  }
  const built = model.build(options.trainPath);
  mkdirSync(options.outputDirectory, { recursive: true });
  writeFileSync(join(options.outputDirectory, model.file), model.format(built));
  if (resolve(options.outputDirectory) === resolve(model.shipped)) {
    recordModel(model.name, {
      what: model.what,
      directory: model.directory,
      build: `npm run ${model.command}`,
      builder: model.builder,
      sources: [
        {
          name: 'ACI-Bench train split (CC BY 4.0)',
          file: 'aci-bench/train.jsonl',
          sha256: sha256(readFileSync(options.trainPath)),
        },
      ],
      files: fileDigests(model.shipped, [model.file]),
    });
  }
  process.stdout.write(`built ${join(options.outputDirectory, model.file)}: ${model.summary(built)}\n`);
  return 0;
}
