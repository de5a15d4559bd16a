import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
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

  it('type-checks for CommonJS and ESM consumers with skipLibCheck off and no Node types', async () => {
    const consumer = await mkdtemp(join(tmpdir(), 'chartwright-client-consumer-'));
    try {
      await mkdir(join(consumer, 'node_modules', '@chartwright'), { recursive: true });
      await symlink(packageDir, join(consumer, 'node_modules', '@chartwright', 'client'), 'dir');
      const usage = [
        "const client = new Chartwright({ apiKey: 'sk_test_example', baseUrl: SANDBOX_BASE_URL });",
        'export async function firstNote(): Promise<Note> {',
        '  const [template] = await client.templates.list();',
        "  return client.notes.create({ templateId: template?.id ?? 'soap', conversationText: 'Doctor: Hi.' });",
        '}',
        'export function isAuthFailure(error: unknown): boolean {',
        '  return error instanceof AuthenticationError && error.status === 401;',
        '}',
        "const management = new ManagementClient({ adminToken: 'cw_admin_example', baseUrl: SANDBOX_BASE_URL });",
        'export async function liveKeyHints(projectId: string): Promise<string[]> {',
        "  return (await management.keys.list(projectId, { environment: 'live' })).map((key: ApiKey) => key.hint);",
        '}',
        '// @ts-expect-error the library is typed: a note’s templateVersion is a number',
        'export const wrong: (note: Note) => string = (note) => note.templateVersion;',
      ].join('\n');
      const imports =
        "{ AuthenticationError, Chartwright, ManagementClient, SANDBOX_BASE_URL, type ApiKey, type Note } from '@chartwright/client'";
      await writeFile(join(consumer, 'package.json'), '{ "private": true }\n');
      await writeFile(join(consumer, 'consumer.cts'), `import ${imports};\n${usage}\n`);
      await writeFile(join(consumer, 'consumer.mts'), `import ${imports};\n${usage}\n`);
      await writeFile(
        join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            lib: ['es2022', 'dom'],
            types: [],
            strict: true,
            skipLibCheck: false,
            noEmit: true,
          },
          files: ['consumer.cts', 'consumer.mts'],
        }),
      );
      const tsc = require.resolve('typescript/bin/tsc');
      const result = await run(process.execPath, [tsc, '-p', consumer]).catch(
        (error: unknown) => error as { stdout: string },
      );
      expect(result.stdout).toBe('');
    } finally {
      await rm(consumer, { recursive: true, force: true });
    }
    // Checking zod's declarations without skipLibCheck takes a while on two cores.
  }, 90_000);

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
