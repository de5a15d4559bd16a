import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installPackedPackages, type PackedProject } from '@chartwright/testing/packed-install.js';

/**
 * What an operator gets from `npm install @chartwright/server`: the server packed with the packages
 * it depends on (protocol, client, the widget and console apps), installed into a project outside
 * this repository, its native modules built there, then run through the `chartwright` command:
 * a project and key made with the CLI, and the service answering with them, pages included.
 */
const run = promisify(execFile);

let project: PackedProject;
let chartwright: string;
let environment: NodeJS.ProcessEnv;
beforeAll(async () => {
  project = await installPackedPackages(
    ['packages/protocol', 'packages/client', 'packages/widget', 'packages/console', 'packages/server'],
    { thirdParty: 'registry', manifest: { allowScripts: { 'better-sqlite3': true, koffi: true } } },
  );
  chartwright = join(project.directory, 'node_modules', '.bin', 'chartwright');
  environment = {
    PATH: process.env['PATH'],
    HOME: project.directory,
    DATABASE_URL: join(project.directory, 'data', 'chartwright.db'),
    HOST: '127.0.0.1',
    PORT: '0',
    // Stopped by the test, not behind a load balancer: no readiness drain to wait out.
    SHUTDOWN_DRAIN_MS: '0',
  };
  // Compiling better-sqlite3 where no prebuilt binary can be fetched takes a minute or two.
}, 420_000);
afterAll(async () => {
  await project.close();
});

/** Starts `chartwright serve` and resolves with its address once it listens. */
async function serve(): Promise<{ child: ChildProcess; origin: string; output: () => string }> {
  const child = spawn(chartwright, ['serve'], { cwd: project.directory, env: environment });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening?.[1] !== undefined) resolve(listening[1]);
    });
    child.once('exit', (code) => reject(new Error(`chartwright serve exited with ${String(code)}:\n${output}`)));
  });
  return { child, origin, output: () => output };
}

describe('the server package installed from its tarball', () => {
  it('runs its CLI and serves the API, the widget and the console with what the CLI made', async () => {
    const { stdout: help } = await run(chartwright, ['--help'], { cwd: project.directory, env: environment });
    expect(help).toContain('serve');
    const json = async (args: string[]) =>
      JSON.parse(
        (await run(chartwright, [...args, '--json'], { cwd: project.directory, env: environment })).stdout,
      ) as {
        id: string;
        key?: string;
      };
    const created = await json(['projects', 'create', '--name', 'Installed']);
    const key = await json(['keys', 'create', '--project', created.id, '--env', 'test']);

    const service = await serve();
    try {
      const templates = await fetch(`${service.origin}/api/v1/templates`, {
        headers: { authorization: `Bearer ${key.key ?? ''}` },
      });
      expect(templates.status).toBe(200);
      expect(((await templates.json()) as { id: string }[]).map((template) => template.id)).toContain('soap');
      expect((await fetch(`${service.origin}/readyz`)).status).toBe(200);
      // The apps' builds came with their packages: pages, not the "not built" answer.
      const consolePage = await fetch(`${service.origin}/console`);
      expect(consolePage.status).toBe(200);
      expect(await consolePage.text()).toMatch(/<script type="module"[^>]* src="\/console\/assets\//);
      const widgetPage = await fetch(`${service.origin}/widget`);
      expect(widgetPage.status).not.toBe(503);
      expect(service.output()).toContain('Chartwright is running');
    } finally {
      service.child.kill('SIGTERM');
      const [code] = (await once(service.child, 'exit')) as [number | null];
      expect(code).toBe(0);
    }
  });
});
