// `npm run lint`'s OpenAPI step: writes the document a service with the default configuration
// serves at /api/v1/openapi.json (built by the service's own code) and lints it with Redocly CLI
// against redocly.yaml (the recommended rules). Any error or warning fails it.
// packages/server/src/operations/openapi-lint.test.ts lints the document a running service serves
// with lintOpenApi().
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { setup } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const redocly = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

function runRedocly(documentPath, format, stdio) {
  return spawnSync(
    process.execPath,
    [
      redocly,
      'lint',
      documentPath,
      '--config',
      join(root, 'redocly.yaml'),
      `--format=${format}`,
      '--max-problems=1000',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      stdio,
      // The lint runs offline: no usage report, no update check.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
}

/** Every problem Redocly finds in the document at `documentPath`, errors and warnings alike. */
export function lintOpenApi(documentPath) {
  const run = runRedocly(documentPath, 'json', ['ignore', 'pipe', 'pipe']);
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    throw new Error(`redocly lint did not report (exit ${run.status}): ${run.stderr.slice(-2000)}`);
  }
  return report.problems.map((problem) => ({
    ruleId: problem.ruleId,
    severity: problem.severity,
    message: problem.message,
    pointer: problem.location[0]?.pointer ?? '',
  }));
}

async function main() {
  // A fresh clone has no dist/ yet: build what the document is made from, as `npm test` does.
  setup({ quiet: true });
  const { loadConfig } = await import('@chartwright/server/internal/config/config.js');
  const { apiDocument } = await import('@chartwright/server/internal/operations/api-document.js');
  const directory = mkdtempSync(join(tmpdir(), 'chartwright-openapi-'));
  try {
    const documentPath = join(directory, 'openapi.json');
    writeFileSync(documentPath, JSON.stringify(apiDocument(loadConfig({})), null, 2));
    const problems = lintOpenApi(documentPath);
    if (problems.length > 0) {
      runRedocly(documentPath, 'codeframe', ['ignore', 'inherit', 'inherit']);
      process.stderr.write(`OpenAPI document: ${problems.length} problem(s) from Redocly (redocly.yaml).\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write('OpenAPI document: no errors, no warnings (Redocly, redocly.yaml).\n');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
