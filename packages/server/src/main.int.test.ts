import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

import { SERVICE_MAIN, startServiceProcess, waitForReady } from '@chartwright/testing/service-process.js';
import { freePort } from '@chartwright/testing/widget-service.js';

// No load balancer routes to these instances, so SIGTERM need not wait for one to notice.
const start = (cwd: string, env: Record<string, string>) =>
  startServiceProcess(cwd, { SHUTDOWN_DRAIN_MS: '0', ...env });

describe('starting the service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chartwright-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a demo project on first start, prints its key once, and reuses the data later', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), PUBLIC_BASE_URL: baseUrl };

    const first = start(dir, env);
    await waitForReady(baseUrl, first);
    expect(first.stdout()).toContain(`Chartwright is running: API ${baseUrl}/api/v1`);
    const key = /sk_test_[0-9A-Za-z]{43}/.exec(first.stdout())?.[0];
    expect(key).toBeDefined();
    expect(first.stdout()).toContain(`curl -s ${baseUrl}/api/v1/templates -H "Authorization: Bearer ${key}"`);
    expect(first.stdout()).toContain(`${baseUrl}/api/v1/realtime/tokens`);

    const templates = await fetch(`${baseUrl}/api/v1/templates`, { headers: { authorization: `Bearer ${key}` } });
    expect(templates.status).toBe(200);
    const token = await fetch(`${baseUrl}/api/v1/realtime/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expiresInSeconds: 3600 }),
    });
    expect(token.status).toBe(201);

    // The console's one-time setup link, printed while no owner exists; it makes the owner.
    const setupToken = new RegExp(`${baseUrl}/console#/setup/([0-9A-Za-z]{43})`).exec(first.stdout())?.[1];
    expect(setupToken).toBeDefined();
    const setup = await fetch(`${baseUrl}/api/v1/console/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: setupToken,
        organisationName: 'Clinic',
        name: 'Owner',
        email: 'owner@clinic.example',
        password: 'a long first-start password',
      }),
    });
    expect(setup.status).toBe(201);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stderr()).not.toContain(key);
    expect(first.stderr()).not.toContain(setupToken);

    const second = start(dir, env);
    await waitForReady(baseUrl, second);
    expect(second.stdout()).not.toMatch(/sk_test_/);
    expect(second.stdout()).not.toContain('/console#/setup/');
    // Every start says where the API and the console are, and how to get a key.
    expect(second.stdout()).toContain(`Chartwright is running: API ${baseUrl}/api/v1`);
    expect(second.stdout()).toContain(`console: ${baseUrl}/console — keys under Settings → API keys`);
    const again = await fetch(`${baseUrl}/api/v1/templates`, { headers: { authorization: `Bearer ${key}` } });
    expect(again.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('writes every log line before it exits, though it writes them asynchronously', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const started = start(dir, {
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      DATABASE_URL: join(dir, 'logs.db'),
    });
    await waitForReady(baseUrl, started);
    // At once, each on a connection of its own: fewer than MAX_CONNECTIONS_PER_IP (256) allows one address.
    const responses = await Promise.all(Array.from({ length: 200 }, () => fetch(`${baseUrl}/healthz`)));
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    // Stopped the moment the last response arrived: its line may still be queued.
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);

    const lines = started
      .stdout()
      .trimEnd()
      .split('\n')
      // Log lines are JSON; the console's first-start link is printed for a person, beside them.
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; requestId?: string; path?: string });
    const logged = new Set(lines.filter((line) => line.path === '/healthz').map((line) => line.requestId));
    expect(ids.filter((id) => !logged.has(id ?? ''))).toEqual([]);
    expect(lines.at(-1)?.msg).toBe('shut down cleanly');
  });

  // Under --trace-pretenuring-statistics V8 prints each pretenuring decision, prefixed with the
  // process id. The service turns pretenuring off before it allocates (v8-flags.ts), so its own
  // process prints none; its recognizer workers are processes of their own and may.
  it('runs without V8 allocation-site pretenuring, from before its first allocation', async () => {
    const trace = ['--trace-pretenuring-statistics'];
    // The same Node decides for a plain script's objects that outlive minor collections: silence
    // from the service is then the setting's doing, not a flag that prints nothing.
    const plain = await promisify(execFile)(process.execPath, [
      ...trace,
      '-e',
      'const kept = []; for (let n = 0; n < 300000; n += 1) kept.push({ n });',
    ]);
    expect(plain.stdout).toContain('pretenuring:');

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const started = startServiceProcess(
      dir,
      {
        SHUTDOWN_DRAIN_MS: '0',
        PORT: String(port),
        PUBLIC_BASE_URL: baseUrl,
        SEED_DEMO: 'false',
        DATABASE_URL: join(dir, 'v8.db'),
      },
      SERVICE_MAIN,
      trace,
    );
    await waitForReady(baseUrl, started);
    await Promise.all(Array.from({ length: 200 }, () => fetch(`${baseUrl}/healthz`)));
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    const own = started
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith(`[${started.child.pid}:`));
    expect(own).toEqual([]);
  });

  it('exits when its port is taken, rather than staying alive on the connections it opened', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const started = start(dir, { PORT: String(port), SEED_DEMO: 'false', DATABASE_URL: join(dir, 'taken.db') });
      expect(await started.exited).toBe(1);
      expect(started.stderr()).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });

  it('refuses to start on a bad variable, naming it and the problem', async () => {
    const started = start(dir, { PORT: 'eighty', LOG_LEVEL: 'chatty' });
    expect(await started.exited).toBe(1);
    expect(started.stderr()).toContain('PORT: must be a whole number');
    expect(started.stderr()).toContain('LOG_LEVEL: must be one of');
  });
});
