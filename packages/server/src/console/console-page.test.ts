import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { testConfig } from '../config/config.js';

/** A console build as Vite lays it out: index.html and content-hashed assets. */
let appDir: string;
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Chartwright console</title>
    <script type="module" crossorigin src="/console/assets/index-Qm3xT9aB.js"></script>
  </head>
  <body><div id="app"></div></body>
</html>
`;
const SCRIPT = 'document.title = "the console";\n';
beforeAll(() => {
  appDir = mkdtempSync(join(tmpdir(), 'chartwright-console-build-'));
  mkdirSync(join(appDir, 'assets'));
  writeFileSync(join(appDir, 'index.html'), INDEX);
  writeFileSync(join(appDir, 'assets', 'index-Qm3xT9aB.js'), SCRIPT);
  writeFileSync(join(appDir, 'assets', 'index-Qm3xT9aB.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(appDir, 'assets', 'index-Ck2_Pz0Q.css'), 'body { margin: 0; }\n');
});
afterAll(() => rmSync(appDir, { recursive: true, force: true }));

/** Each directive of the CSP with its sources. */
function cspOf(response: LightMyRequestResponse): Map<string, string[]> {
  const csp = response.headers['content-security-policy'] ?? '';
  return new Map(
    csp.split(';').map((entry) => {
      const [name = '', ...sources] = entry.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

let h: Harness;
afterEach(async () => {
  await h.close();
});

describe('GET /console', () => {
  beforeEach(async () => {
    h = await createHarness({ config: { console: { ...testConfig().console, appDir } } });
  });

  it('serves the app’s page, never cached and sending no Referer', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/console' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toBe(INDEX);
  });

  it('lets the page run only its own files, talk only to the service, and be framed by no one', async () => {
    const csp = cspOf(await h.app.inject({ method: 'GET', url: '/console' }));
    expect(Object.fromEntries(csp)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'self'"],
      'base-uri': ["'none'"],
      'object-src': ["'none'"],
    });
  });

  it('needs no credential: the app asks the API who is signed in', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/console', headers: { cookie: 'cw_console=forged' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /console without a build', () => {
  beforeEach(async () => {
    h = await createHarness({ config: { console: { ...testConfig().console, appDir: join(appDir, 'missing') } } });
  });

  it('says how to build the app, framed by no one, and logs why', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/console' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(cspOf(response).get('frame-ancestors')).toEqual(["'none'"]);
    expect(cspOf(response).get('default-src')).toEqual(["'none'"]);
    expect(response.body).toContain('npm run build -w @chartwright/console');
    expect(h.logs.text).toContain('the console app is not built');
  });
});

describe('GET /console/assets/{file}', () => {
  beforeEach(async () => {
    h = await createHarness({ config: { console: { ...testConfig().console, appDir } } });
  });

  const asset = (file: string, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'GET', url: `/console/assets/${file}`, headers });

  it('serves the build’s files with their type, cached for a year (their names change with their content)', async () => {
    const script = await asset('index-Qm3xT9aB.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.body).toBe(SCRIPT);
    expect((await asset('index-Ck2_Pz0Q.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('sends the build’s gzip copy to a browser that accepts gzip, and the plain file otherwise', async () => {
    const compressed = await asset('index-Qm3xT9aB.js', { 'accept-encoding': 'gzip, br' });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['vary']).toBe('accept-encoding');
    expect(gunzipSync(compressed.rawPayload).toString('utf8')).toBe(SCRIPT);
    const plain = await asset('index-Ck2_Pz0Q.css', { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('body { margin: 0; }\n');
  });

  it('answers 404 for a file the build does not have, and for any name that is not a plain asset name', async () => {
    for (const file of ['index-missing.js', 'index-Qm3xT9aB.js.gz', 'index.html', '..%2Findex.html', 'a.exe']) {
      const response = await asset(file);
      expect(response.statusCode, file).toBe(404);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('route_not_found');
    }
  });
});
