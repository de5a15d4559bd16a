/**
 * `npm run eval:notes -- <file.jsonl> [--template <id>] [--engine extractive] [--json]`: scores the
 * note engine on a data set of visit dialogues and clinicians' notes (see docs/notes-quality.md).
 * Runs from the tools' build: `node packages/server/tools-dist/eval-notes/cli.js`.
 */
import { fileURLToPath } from 'node:url';

import { extractiveGenerator } from '@chartwright/server/internal/notes/engines/extractive/index.js';
import { CURATED_TEMPLATES } from '@chartwright/server/internal/notes/templates.js';
import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';

import { describeMachine } from '../shared/machine.js';
import { runEval, type EvalDependencies, type Output } from './run.js';

/** The engines the tool can score: the offline ones, which need no configuration. */
export const EVAL_DEPENDENCIES: EvalDependencies = {
  engines: { [extractiveGenerator.engine.name]: extractiveGenerator },
  templates: CURATED_TEMPLATES,
  parse: parseConversation,
  machine: describeMachine,
};

export function main(argv: readonly string[], output: Output): Promise<number> {
  return runEval(argv, output, EVAL_DEPENDENCIES);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const output: Output = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  main(process.argv.slice(2), output).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`eval:notes: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
