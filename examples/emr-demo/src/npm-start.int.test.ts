import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { startServiceProcess, type ServiceProcess } from '@chartwright/testing/service-process.js';
import { freePort } from '@chartwright/testing/widget-service.js';

/** `npm start` exactly: scripts/start.mjs, which sets up, starts the service and the demo EMR beside it. */
const START = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scripts', 'start.mjs');

// No load balancer routes to these instances, so SIGTERM need not wait for one to notice.
const start = (cwd: string, env: Record<string, string>) =>
  startServiceProcess(cwd, { CHARTWRIGHT_SKIP_SYSTEM_PACKAGES: '1', SHUTDOWN_DRAIN_MS: '0', ...env }, START);

/** Resolves once `pattern` appears in what the process printed; fails if it exits first. */
async function printed(started: ServiceProcess, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(started.stdout() + started.stderr());
    if (match !== null) return match;
    if (started.child.exitCode !== null) throw new Error(`npm start exited: ${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(started: ServiceProcess): Promise<number | null> {
  started.child.kill('SIGTERM');
  return started.exited;
}

/** A JWT's claims, read without verifying it: the service verifies, the test only looks. */
const claimsOf = (token: string): unknown => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());

const mintThroughDemo = (demoUrl: string, patientId: string) =>
  fetch(`${demoUrl}/api/widget-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ patientId }),
  });

describe('npm start with the demo EMR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chartwright-npm-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the demo EMR on its own origin, minting tokens with a partner key it never shows, across restarts', async () => {
    const port = await freePort();
    const serviceUrl = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), PUBLIC_BASE_URL: serviceUrl, DATABASE_URL: join(dir, 'demo.db') };
    const demoUrl = `http://localhost:${port + 1}`;

    for (const run of ['first start', 'restart']) {
      const started = start(dir, env);
      try {
        // The widget is on 127.0.0.1, so the demo is on localhost: another origin and another site.
        const [, address] = await printed(started, /Demo EMR[^\n]*: (http:\/\/\S+)/);
        expect(address, run).toBe(demoUrl);

        const page = await fetch(`${demoUrl}/patients/MRN-1002`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-security-policy')).toContain(`frame-src ${serviceUrl}`);
        const minted = await mintThroughDemo(demoUrl, 'MRN-1002');
        expect(minted.status, run).toBe(200);
        const { token } = (await minted.json()) as { token: string };
        expect(claimsOf(token)).toMatchObject({
          emrUserId: 'clin-0001',
          emrSessionId: expect.stringMatching(/^MRN-1002-visit-1-/) as unknown,
        });

        // The partner may frame the widget from the demo's origin.
        const widget = await fetch(`${serviceUrl}/widget?token=${encodeURIComponent(token)}`);
        expect(widget.headers.get('content-security-policy')).toContain(`frame-ancestors ${demoUrl}`);
        expect(started.stdout() + started.stderr()).not.toMatch(/ptn_/);
      } finally {
        expect(await stop(started)).toBe(0);
      }
    }
  }, 180_000);

  it('leaves the demo out with DEMO_EMR=false, and keeps the service running when the demo’s settings are wrong', async () => {
    const port = await freePort();
    const serviceUrl = `http://127.0.0.1:${port}`;
    const base = { PORT: String(port), PUBLIC_BASE_URL: serviceUrl, DATABASE_URL: join(dir, 'off.db') };

    const off = start(dir, { ...base, DEMO_EMR: 'false' });
    try {
      await printed(off, /Chartwright created a demo project/);
      expect((await fetch(`${serviceUrl}/readyz`)).status).toBe(200);
      expect(off.stdout()).not.toMatch(/Demo EMR/);
      await expect(fetch(`http://localhost:${port + 1}/`)).rejects.toThrow();
    } finally {
      expect(await stop(off)).toBe(0);
    }

    const wrong = start(dir, { ...base, DEMO_EMR: 'maybe', DEMO_EMR_PORT: '99999' });
    try {
      const [line] = await printed(wrong, /the demo EMR did not start: .*/);
      expect(line).toContain('DEMO_EMR: must be true or false; DEMO_EMR_PORT: must be a whole number from 1 to 65535');
      expect((await fetch(`${serviceUrl}/readyz`)).status).toBe(200);
    } finally {
      expect(await stop(wrong)).toBe(0);
    }
  }, 180_000);
});
