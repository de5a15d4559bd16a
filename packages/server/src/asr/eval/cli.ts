/**
 * `npm run eval:asr -- [<valid.jsonl>] [options]`: word error rate of the PocketSphinx recognizer on
 * flite-spoken ACI-Bench dialogues, stock vs clinical vocabulary (see docs/realtime.md). Runs from
 * the build: `node packages/server/dist/asr/eval/cli.js`. Needs flite and the recognizer packages.
 */
import { fileURLToPath } from 'node:url';

import { describeMachine } from '../../bench/report.js';
import { runAsrEval, type Output } from './run.js';

/** The valid split beside the repository (../shared/data), as the note benchmarks read it. */
export const DEFAULT_VALID = fileURLToPath(
  new URL('../../../../../../shared/data/aci-bench/valid.jsonl', import.meta.url),
);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const output: Output = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  runAsrEval(process.argv.slice(2), output, { defaultFile: DEFAULT_VALID, machine: describeMachine }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`eval:asr: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
