/**
 * `npm run build:asr-cepstral-prior -- [--real-speech <dir>]`: rebuilds models/asr/cepstral-prior.json,
 * the cepstral mean a new PocketSphinx stream starts from, from real recordings (the development set
 * and Debian's pocketsphinx-testdata). Each recording goes through the worker's own path (the
 * narrowband restorer, then a fresh decoder) and leaves the mean the library settled on. Runs from
 * the tools' build: `node packages/server/tools-dist/asr-cepstral-prior/build-cli.js`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CEPSTRAL_PRIOR_FILE } from '@chartwright/server/internal/asr/pocketsphinx/cepstral-prior.js';
import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';

import { fileDigests, recordModel, sha256 } from '../models/manifest.js';
import { REAL_SPEECH_DIR } from '../shared/datasets.js';
import { POCKETSPHINX_TESTDATA } from '../speech/real-speech.js';
import { recordingMeans } from './measure.js';
import { cepstralPrior, formatCepstralPrior } from './prior.js';

export const USAGE = `Usage: npm run build:asr-cepstral-prior -- [--real-speech <dir>]

Measures where real recordings leave PocketSphinx's cepstral mean and writes the average as the
prior every new stream starts from (${CEPSTRAL_PRIOR_FILE}).

  --real-speech <dir>   the real-speech set (refs.tsv, wav/) (default: ${REAL_SPEECH_DIR})`;

async function main(argv: readonly string[]): Promise<number> {
  let realSpeechDirectory = REAL_SPEECH_DIR;
  try {
    for (let index = 0; index < argv.length; index++) {
      const argument = argv[index] ?? '';
      if (argument === '--help' || argument === '-h') {
        process.stdout.write(`${USAGE}\n`);
        return 0;
      }
      if (argument === '--real-speech') realSpeechDirectory = optionValue(argv, index++);
      else throw new UsageError(`unknown option ${argument}`);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`build:asr-cepstral-prior: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const prior = cepstralPrior(await recordingMeans(realSpeechDirectory));
  writeFileSync(CEPSTRAL_PRIOR_FILE, formatCepstralPrior(prior));
  const source = (name: string, file: string, dataFile?: string): { name: string; file?: string; sha256: string } => ({
    name,
    ...(dataFile === undefined ? {} : { file: dataFile }),
    sha256: sha256(readFileSync(file)),
  });
  recordModel('asr-cepstral-prior', {
    what: 'Where a new PocketSphinx stream starts its cepstral mean normalisation',
    directory: 'asr',
    build: 'npm run build:asr-cepstral-prior',
    builder: 'packages/server/tools/asr-cepstral-prior',
    sources: [
      source('real-speech development set: refs.tsv', join(realSpeechDirectory, 'refs.tsv'), 'real-speech/refs.tsv'),
      source('pocketsphinx-testdata: librivox/transcription', join(POCKETSPHINX_TESTDATA, 'librivox', 'transcription')),
      source(
        'pocketsphinx-testdata: cards/cards.transcription',
        join(POCKETSPHINX_TESTDATA, 'cards', 'cards.transcription'),
      ),
    ],
    files: fileDigests(dirname(CEPSTRAL_PRIOR_FILE), ['cepstral-prior.json']),
  });
  const groups = Object.entries(prior.groups).map(([group, count]) => `${group} ${count}`);
  process.stdout.write(`built ${CEPSTRAL_PRIOR_FILE} from ${groups.join(', ')}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`build:asr-cepstral-prior: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
