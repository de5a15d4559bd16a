import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, it } from 'vitest';

import { CLIENT_VERSION } from './core/version.js';

// These check the built package (dist), as npm would publish it; scripts/setup.mjs builds it first.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = promisify(execFile);

async function packageJson(): Promise<{ version: string }> {
  return JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
}

describe('the published package', () => {
  it('passes publint with no error, warning or suggestion', async () => {
    const { messages, pkg } = await publint({ pkgDir: packageDir, pack: 'npm', level: 'suggestion' });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });

  it('resolves to the right types in every module mode (are-the-types-wrong)', async () => {
    const attw = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');
    const { stdout } = await run(process.execPath, [attw, '--pack', packageDir, '--format', 'json'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const { analysis } = JSON.parse(stdout) as { analysis: { problems: unknown[] } };
    expect(analysis.problems).toEqual([]);
  });

  it('says its own version in x-chartwright-client', async () => {
    expect(CLIENT_VERSION).toBe((await packageJson()).version);
  });

  it('ships a browser bundle without Node built-ins, ws or zod, loadable as an ES module', async () => {
    const bundlePath = join(packageDir, 'dist', 'browser', 'chartwright.min.js');
    const bundle = await readFile(bundlePath, 'utf8');
    expect(bundle).not.toMatch(/from\s*["']node:|require\(|import\(["']ws["']\)|ZodError/);
    const loaded = (await import(bundlePath)) as Record<string, unknown>;
    expect(typeof loaded['Chartwright']).toBe('function');
    expect(typeof loaded['ManagementClient']).toBe('function');
    const RateLimitError = loaded['RateLimitError'] as new (init: object) => Error;
    expect(new RateLimitError({ message: 'm', code: 'rate_limited', headers: new Headers() }).name).toBe(
      'RateLimitError',
    );
  });
});
