/**
 * `npm run build:punctuation-model -- [--train <train.jsonl>] [--out <dir>]`: rebuilds the model
 * that places sentence ends in recognizer text (models/text/punctuation.json) from the ACI-Bench
 * train split's punctuated dialogues. Runs from the tools' build:
 * `node packages/server/tools-dist/punctuation-model/build-cli.js`.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  PUNCTUATION_MODEL_FILE,
  type HiddenEventModelFile,
} from '@chartwright/server/internal/text/punctuation/hidden-event-model.js';

import { parseTrainSplitArguments, runTrainSplitBuild, type TrainSplitModel } from '../models/train-split-cli.js';
import { buildPunctuationModel, formatPunctuationModel } from './build.js';

export const PUNCTUATION_MODEL: TrainSplitModel<HiddenEventModelFile> = {
  command: 'build:punctuation-model',
  name: 'text-punctuation',
  what: 'Where sentences end in recognizer text: the display text and the note parser',
  shipped: dirname(PUNCTUATION_MODEL_FILE),
  directory: 'text',
  file: 'punctuation.json',
  builder: 'packages/server/tools/punctuation-model',
  purpose: 'Counts where sentences end in the punctuated dialogues',
  validMeasures: 'the notes written from recognizer text',
  build: buildPunctuationModel,
  format: formatPunctuationModel,
  summary: (model) =>
    `${Object.keys(model.ngrams).length} n-grams from ${model.trainedOn.dialogues} dialogues (${model.trainedOn.words} words), end bonus ${model.endBonus}`,
};

export const parseArguments = (argv: readonly string[]) => parseTrainSplitArguments(argv, PUNCTUATION_MODEL);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = runTrainSplitBuild(PUNCTUATION_MODEL, process.argv.slice(2));
}
