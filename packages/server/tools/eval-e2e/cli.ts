/**
 * `npm run eval:e2e -- [<valid.jsonl>] [options]`: from spoken visit to note through the service's
 * realtime API (see run.ts and docs/notes-quality.md). Runs from the tools' build:
 * `node packages/server/tools-dist/eval-e2e/cli.js`. Needs flite and the recognizer packages.
 */
import { fileURLToPath } from 'node:url';

import { ACI_BENCH_VALID } from '../shared/datasets.js';
import { runE2eEval, type Output } from './run.js';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const output: Output = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  runE2eEval(process.argv.slice(2), output, { file: ACI_BENCH_VALID, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`eval:e2e: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
