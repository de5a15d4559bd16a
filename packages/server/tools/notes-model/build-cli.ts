/**
 * `npm run build:notes-model -- [--train <train.jsonl>] [--out <dir>]`: rebuilds the extractive note
 * engine's word rates (models/notes/word-weights.json) from the ACI-Bench train split. Run it after
 * changing how the engine cleans or rewrites statements. Runs from the tools' build:
 * `node packages/server/tools-dist/notes-model/build-cli.js`.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  WORD_WEIGHTS_FILE,
  type WordWeightsModel,
} from '@chartwright/server/internal/notes/engines/extractive/word-weights.js';

import { runTrainSplitBuild, type TrainSplitModel } from '../models/train-split-cli.js';
import { buildWordWeights, formatWordWeights } from './word-weights.js';

export const NOTES_WORD_WEIGHTS: TrainSplitModel<WordWeightsModel> = {
  command: 'build:notes-model',
  name: 'notes-word-weights',
  what: 'The extractive note engine: how often each word said in a visit ends up in the note',
  shipped: dirname(WORD_WEIGHTS_FILE),
  directory: 'notes',
  file: 'word-weights.json',
  builder: 'packages/server/tools/notes-model',
  purpose: "Learns the extractive engine's word rates",
  validMeasures: 'the engine',
  build: buildWordWeights,
  format: formatWordWeights,
  summary: (model) => `${Object.keys(model.weights).length} words from ${model.visits} visits`,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = runTrainSplitBuild(NOTES_WORD_WEIGHTS, process.argv.slice(2));
}
