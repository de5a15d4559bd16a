import { execFile } from 'node:child_process';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium, missingBrowser } from '@chartwright/testing/browser.js';
import { createAdminToken, setUpOwner } from '@chartwright/testing/console.js';
import { installPackedPackages, REPOSITORY, type PackedProject } from '@chartwright/testing/packed-install.js';

import { Chartwright } from './client.js';
import { NODE18 } from './test-support/node18.js';
import { startTestServer, type TestServer } from './test-support/server.js';

/**
 * What a developer gets from npm: the protocol, the client and the embed helper packed as they
 * would be published, installed into a project in the system's temporary directory (so nothing of
 * this repository's node_modules is reachable) with no registry, then used there: on Node 18 and
 * the Node running the tests, through `import` and `require`, type-checked by a strict TypeScript
 * consumer, and loaded in Chromium from the browser bundles.
 */
const compat = join(dirname(fileURLToPath(import.meta.url)), '..', 'compat');
const require = createRequire(import.meta.url);
const run = promisify(execFile);
const SCRIPTS = ['rest-scenario.cjs', 'rest-esm.mjs', 'rest-cjs.cjs'];

let project: PackedProject;
let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  [project, server] = await Promise.all([
    installPackedPackages(['packages/protocol', 'packages/client', 'packages/embed']),
    startTestServer(),
  ]);
  adminToken = (await createAdminToken(await setUpOwner(server.harness), 'auditor')).secret;
  await Promise.all(SCRIPTS.map((script) => copyFile(join(compat, script), join(project.directory, script))));
}, 180_000);
afterAll(async () => {
  await Promise.all([project.close(), server.close()]);
});

describe('the packed packages, installed into a project of their own', () => {
  it('resolve inside that project, outside this repository', async () => {
    expect(relative(REPOSITORY, project.directory)).toMatch(/^\.\./);
    const resolved = await Promise.all(
      ['@chartwright/client', '@chartwright/embed', '@chartwright/protocol'].map(async (name) => {
        const { stdout } = await run(
          process.execPath,
          ['--input-type=module', '-e', `console.log(import.meta.resolve('${name}'))`],
          {
            cwd: project.directory,
          },
        );
        return fileURLToPath(stdout.trim());
      }),
    );
    for (const path of resolved)
      expect(path.startsWith(join(project.directory, 'node_modules', '@chartwright'))).toBe(true);
  });

  it('load through require on Node 18, the embed helper included (its code touches the page only when called)', async () => {
    const { stdout } = await run(
      NODE18,
      [
        '-p',
        "[typeof require('@chartwright/embed').mountWidget, typeof require('@chartwright/client').Chartwright].join()",
      ],
      { cwd: project.directory },
    );
    expect(stdout.trim()).toBe('function,function');
  });

  it('type-check for CommonJS and ESM consumers with skipLibCheck off and no Node types', async () => {
    const consumer = project.directory;
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
    const embedImports = "{ mountWidget, type MountWidgetOptions, type WidgetHandle } from '@chartwright/embed'";
    const embedUsage = 'export const mount: (options: MountWidgetOptions) => WidgetHandle = mountWidget;';
    for (const file of ['consumer.cts', 'consumer.mts']) {
      await writeFile(join(consumer, file), `import ${imports};\nimport ${embedImports};\n${usage}\n${embedUsage}\n`);
    }
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
    // Checking zod's declarations without skipLibCheck takes a while on two cores.
  }, 90_000);
});

describe.each([
  ['Node 18', NODE18, 18],
  ['this Node', process.execPath, Number(process.versions.node.split('.')[0])],
])('the installed client on %s', (_runtime, node, major) => {
  it.each([
    ['import (ESM)', 'rest-esm.mjs'],
    ['require (CJS)', 'rest-cjs.cjs'],
  ])(
    'through %s: lists templates, creates notes (from segments too, retrieved with facts), maps errors, refuses a temporary token without a request, and manages with an admin token',
    async (_mode, script) => {
      const { stdout } = await run(node, [join(project.directory, script)], {
        cwd: project.directory,
        env: {
          CHARTWRIGHT_BASE_URL: server.baseUrl,
          CHARTWRIGHT_API_KEY: server.harness.project.testKey,
          CHARTWRIGHT_ADMIN_TOKEN: adminToken,
        },
      });
      const report = JSON.parse(stdout) as Record<string, unknown>;
      expect(report['node']).toMatch(new RegExp(`^v${major}\\.`));
      expect(report['templateIds']).toContain('soap');
      expect(report['note']).toEqual({ object: 'note', templateId: 'soap', hasCreatedAt: true });
      // The "no" heard at 0.4 is flagged; every note is verified; the facts come when asked.
      expect(report['concise']).toEqual({
        style: 'concise',
        flags: ['low_confidence_word'],
        verified: true,
        facts: true,
      });
      expect(report['unknownKey']).toEqual({
        name: 'AuthenticationError',
        isChartwrightError: true,
        isAuthenticationError: true,
        isPermissionDeniedError: false,
        status: 401,
        code: 'invalid_api_key',
        hasRequestId: true,
      });
      expect(report['temporaryToken']).toEqual({
        name: 'PermissionDeniedError',
        isChartwrightError: true,
        isAuthenticationError: false,
        isPermissionDeniedError: true,
        status: 403,
        code: 'temporary_token_not_allowed',
        hasRequestId: false,
        fetchCalls: 0,
      });
      // The management client: an admin token reads the organisation; a project key never leaves.
      expect(report['management']).toEqual({
        projectIds: [server.harness.project.id],
        auditPage: { records: 1, hasNextCursor: true },
        projectKey: {
          name: 'PermissionDeniedError',
          isChartwrightError: true,
          isAuthenticationError: false,
          isPermissionDeniedError: true,
          status: 403,
          code: 'project_credential_not_allowed',
          hasRequestId: false,
        },
      });
    },
  );
});

/** What the page's two bundles define: the client's module (the page keeps it) and the embed script's global. */
interface InstalledBundles {
  client: typeof import('./index.js');
  Chartwright: { mountWidget: (options: object) => unknown };
}

/** Serves the project's files, as a page's own server would serve the installed bundles. */
async function serveProject(directory: string): Promise<{ origin: string; server: Server }> {
  const page = await readFile(join(directory, 'page.html'));
  const files = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page);
      return;
    }
    readFile(join(directory, normalize(path)))
      .then((body) => response.writeHead(200, { 'content-type': 'text/javascript' }).end(body))
      .catch(() => response.writeHead(404).end());
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(files.address() as AddressInfo).port}`, server: files };
}

describe.skipIf(missingBrowser().length > 0)('the installed browser bundles in Chromium', () => {
  let browser: Browser;
  let files: { origin: string; server: Server };
  beforeAll(async () => {
    // The client's file for browsers is the one its exports map names, as a bundler would pick it.
    const manifest = JSON.parse(
      await readFile(join(project.directory, 'node_modules', '@chartwright', 'client', 'package.json'), 'utf8'),
    ) as { exports: { '.': { browser: { default: string } } } };
    const clientFile = `/node_modules/@chartwright/client/${manifest.exports['.'].browser.default.slice(2)}`;
    await writeFile(
      join(project.directory, 'page.html'),
      `<!doctype html><meta charset="utf-8"><title>installed</title>
<script src="/node_modules/@chartwright/embed/dist/chartwright-embed.min.js"></script>
<script type="module">import * as client from '${clientFile}'; window.client = client;</script>`,
    );
    [browser, files] = await Promise.all([launchChromium(), serveProject(project.directory)]);
  }, 60_000);
  afterAll(async () => {
    await browser.close();
    files.server.close();
  });

  it('run the client (a temporary token refused for REST without a request) and the embed helper (options checked)', async () => {
    const { token } = await new Chartwright({
      apiKey: server.harness.project.testKey,
      baseUrl: server.baseUrl,
    }).realtime.tokens.create({ expiresInSeconds: 60 });
    const page = await browser.newPage();
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(server.baseUrl)) apiRequests.push(request.url());
    });
    await page.goto(files.origin);
    await page.waitForFunction(() => 'client' in window);
    const outcome = await page.evaluate(
      async ({ token, baseUrl }) => {
        const loaded = window as unknown as InstalledBundles;
        const refusal = await new loaded.client.Chartwright({ apiKey: token, baseUrl }).notes
          .create({ templateId: 'soap', conversationText: 'Doctor: Hello.' })
          .then(
            () => null,
            (error: unknown) => ({ name: (error as Error).name, code: (error as { code: string }).code }),
          );
        let embed: { name: string; code: string } | null = null;
        try {
          loaded.Chartwright.mountWidget({});
        } catch (error) {
          embed = { name: (error as Error).name, code: (error as { code: string }).code };
        }
        return { refusal, embed };
      },
      { token, baseUrl: server.baseUrl },
    );
    expect(outcome).toEqual({
      refusal: { name: 'PermissionDeniedError', code: 'temporary_token_not_allowed' },
      embed: { name: 'WidgetEmbedError', code: 'INVALID_OPTIONS' },
    });
    expect(apiRequests).toEqual([]);
  });
});
