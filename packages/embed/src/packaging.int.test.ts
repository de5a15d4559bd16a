import { execFile, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = promisify(execFile);

// The built package (dist), as npm would publish it.
describe('the published package', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  }, 60_000);

  it('passes publint with no error, warning or suggestion', async () => {
    const { messages, pkg } = await publint({ pkgDir: packageDir, pack: 'npm', level: 'suggestion' });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });

  it('resolves to the right types for import and require (are-the-types-wrong)', async () => {
    const attw = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');
    // `./script` is the script-tag bundle (it defines window.Chartwright): a file to serve, not a module to import.
    const { stdout } = await run(
      process.execPath,
      [attw, '--pack', packageDir, '--format', 'json', '--exclude-entrypoints', './script'],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const { analysis } = JSON.parse(stdout) as { analysis: { problems: unknown[] } };
    expect(analysis.problems).toEqual([]);
  });
});
