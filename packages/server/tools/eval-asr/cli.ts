/**
 * `npm run eval:asr -- [<valid.jsonl>] [options]`: word error rate of the PocketSphinx recognizer on
 * real recorded speech and on flite-spoken ACI-Bench dialogues, stock vs clinical vocabulary (see
 * docs/realtime.md). Runs from the tools' build: `node packages/server/tools-dist/eval-asr/cli.js`.
 * Needs flite, the recognizer packages and pocketsphinx-testdata.
 */
import { fileURLToPath } from 'node:url';

import { ACI_BENCH_VALID, REAL_SPEECH_DIR } from '../shared/datasets.js';
import { describeMachine } from '../shared/machine.js';
import { runAsrEval, type Output } from './run.js';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const output: Output = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  runAsrEval(process.argv.slice(2), output, {
    file: ACI_BENCH_VALID,
    realSpeechDirectory: REAL_SPEECH_DIR,
    machine: describeMachine,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`eval:asr: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
