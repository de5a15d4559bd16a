import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness, type HarnessOptions } from '@chartwright/testing/harness.js';

const ORIGINS = ['https://emr.example.com', 'https://charts.example.org:8443', 'http://localhost:3000'];

const openPage = (h: Harness, token?: string) =>
  h.app.inject({
    method: 'GET',
    url: token === undefined ? '/widget' : `/widget?token=${encodeURIComponent(token)}`,
  });

/** The sources of one directive of the CSP. */
function cspSources(response: LightMyRequestResponse, directive: string): string[] {
  const csp = response.headers['content-security-policy'] ?? '';
  const directives = csp.split(';').map((entry) => entry.trim().split(/\s+/));
  const matching = directives.filter(([name]) => name === directive);
  expect(matching, csp).toHaveLength(1);
  return matching[0]?.slice(1) ?? [];
}

const frameAncestors = (response: LightMyRequestResponse) => cspSources(response, 'frame-ancestors');

/** The data the page hands the app before it makes any request. */
function bootOf(response: LightMyRequestResponse): { serverNow: number; frameOrigins: string[] } {
  const match = /<script id="chartwright-boot" type="application\/json">(.*?)<\/script><\/head>/.exec(response.body);
  expect(match, response.body).not.toBeNull();
  return JSON.parse(match?.[1] ?? '{}') as { serverNow: number; frameOrigins: string[] };
}

/** A widget build as Vite lays it out: index.html and content-hashed assets. */
let appDir: string;
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Chartwright scribe</title>
    <script type="module" crossorigin src="/widget/assets/index-Yo1wLI0K.js"></script>
  </head>
  <body><div id="app"></div></body>
</html>
`;
const SCRIPT = 'console.log("the widget");\n';
beforeAll(() => {
  appDir = mkdtempSync(join(tmpdir(), 'chartwright-widget-build-'));
  mkdirSync(join(appDir, 'assets'));
  writeFileSync(join(appDir, 'index.html'), INDEX);
  writeFileSync(join(appDir, 'assets', 'index-Yo1wLI0K.js'), SCRIPT);
  writeFileSync(join(appDir, 'assets', 'index-Yo1wLI0K.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(appDir, 'assets', 'index-CvM_PX9O.css'), 'body { margin: 0; }\n');
});
afterAll(() => rmSync(appDir, { recursive: true, force: true }));

const harness = (options: HarnessOptions = {}) =>
  createHarness({ ...options, config: { logLevel: 'trace', widgetAppDir: appDir, ...options.config } });

function expectPageHeaders(response: LightMyRequestResponse): void {
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['cache-control']).toBe('no-store');
}

function expectUnframeable(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(401);
  expectPageHeaders(response);
  expect(frameAncestors(response)).toEqual(["'none'"]);
}

describe('GET /widget', () => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  beforeEach(async () => {
    h = await harness();
    partner = await h.createPartner({ origins: ORIGINS, tokenLifetimeSeconds: 600 });
  });
  afterEach(async () => {
    await h.close();
  });

  const mint = () => h.mintWidgetToken(partner.partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' });

  it('serves the app, framable by exactly the partner’s origins', async () => {
    const { token } = await mint();
    const response = await openPage(h, token);
    expect(response.statusCode).toBe(200);
    expectPageHeaders(response);
    expect(frameAncestors(response)).toEqual(ORIGINS);
    expect(response.body).toMatch(/^<!doctype html>/i);
    expect(response.body).toContain('<script type="module" crossorigin src="/widget/assets/index-Yo1wLI0K.js">');
    expect(response.body).not.toContain(token);
  });

  it('never lets a stored wildcard origin into frame-ancestors', async () => {
    // As a partner registered before exact origins were required might have it.
    await h.repositories.partners.setAllowedOrigins(partner.id, JSON.stringify(['https://*.example.com', ...ORIGINS]));
    const response = await openPage(h, (await mint()).token);
    expect(frameAncestors(response)).toEqual(ORIGINS);
    expect(bootOf(response).frameOrigins).toEqual(ORIGINS);
    await h.repositories.partners.setAllowedOrigins(partner.id, JSON.stringify(['https://*.example.com']));
    expectUnframeable(await openPage(h, (await mint()).token));
  });

  it('tells the app the service’s clock and the framing origins, before any request', async () => {
    const { token } = await mint();
    h.clock.advance(42_000);
    expect(bootOf(await openPage(h, token))).toEqual({ serverNow: h.clock.now(), frameOrigins: ORIGINS });
  });

  it('lets the app run only its own scripts (and the microphone worklet’s blob:) and talk only to the service', async () => {
    const response = await openPage(h, (await mint()).token);
    expect(cspSources(response, 'default-src')).toEqual(["'self'"]);
    expect(cspSources(response, 'script-src')).toEqual(["'self'", 'blob:']);
    expect(cspSources(response, 'style-src')).toEqual(["'self'"]);
    expect(cspSources(response, 'connect-src')).toEqual(["'self'"]);
    expect(cspSources(response, 'object-src')).toEqual(["'none'"]);
  });

  it('says how to build the app when it is not built, still only to the partner’s frame', async () => {
    await h.close();
    h = await harness({ config: { widgetAppDir: join(appDir, 'missing') } });
    partner = await h.createPartner({ origins: ORIGINS, tokenLifetimeSeconds: 600 });
    const response = await openPage(h, (await mint()).token);
    expect(response.statusCode).toBe(503);
    expectPageHeaders(response);
    expect(frameAncestors(response)).toEqual(ORIGINS);
    expect(response.body).toContain('npm run build -w @chartwright/widget');
  });

  it('keeps each partner’s page to its own origins', async () => {
    const other = await h.createPartner({ origins: ['https://other-emr.example.com'] });
    const { token } = await h.mintWidgetToken(other.partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' });
    expect(frameAncestors(await openPage(h, token))).toEqual(['https://other-emr.example.com']);
  });

  it('still lets the partner frame the page once the token has expired, and names its origins to the app', async () => {
    const { token, expiresAt } = await mint();
    h.clock.advance(Date.parse(expiresAt) - h.clock.now() + 3_600_000);
    const response = await openPage(h, token);
    expect(response.statusCode).toBe(200);
    expectPageHeaders(response);
    expect(frameAncestors(response)).toEqual(ORIGINS);
    expect(bootOf(response).frameOrigins).toEqual(ORIGINS);
  });

  it('lets no one frame the page without a token', async () => {
    expectUnframeable(await openPage(h));
    expectUnframeable(await openPage(h, ''));
  });

  it('lets no one frame the page for a garbage token', async () => {
    expectUnframeable(await openPage(h, 'garbage'));
    expectUnframeable(await openPage(h, 'a.b.c'));
  });

  it('lets no one frame the page for a forged token', async () => {
    const { token } = await mint();
    const { privateKey } = await generateKeyPair('EdDSA');
    const forged = await new SignJWT(decodeJwt(token))
      .setProtectedHeader({ alg: 'EdDSA', kid: decodeProtectedHeader(token).kid ?? '', typ: 'JWT' })
      .sign(privateKey);
    expectUnframeable(await openPage(h, forged));
  });

  it('lets no one frame the page of a revoked partner', async () => {
    const { token } = await mint();
    await h.partners.revoke(partner.id);
    expectUnframeable(await openPage(h, token));
  });

  it('never writes the token to the logs', async () => {
    const { token } = await mint();
    await openPage(h, token);
    h.clock.advance(3_600_000);
    await openPage(h, token);
    await h.partners.revoke(partner.id);
    await openPage(h, token);
    expect(h.logs.lines.length).toBeGreaterThan(0);
    expect(h.logs.text).toContain('/widget');
    expect(h.logs.text).not.toContain(token);
    for (const part of token.split('.')) expect(h.logs.text).not.toContain(part);
  });
});

describe('GET /widget/assets/{file}', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
  });

  const asset = (file: string, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'GET', url: `/widget/assets/${file}`, headers });

  it('serves the build’s files with their type, cached for a year (their names change with their content)', async () => {
    const script = await asset('index-Yo1wLI0K.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.body).toBe(SCRIPT);
    expect((await asset('index-CvM_PX9O.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('sends the build’s gzip copy to a browser that accepts gzip, and the plain file otherwise', async () => {
    const compressed = await asset('index-Yo1wLI0K.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['vary']).toBe('accept-encoding');
    expect(gunzipSync(compressed.rawPayload).toString('utf8')).toBe(SCRIPT);
    // The stylesheet has no gzip copy here: it goes out plain whatever the browser accepts.
    const plain = await asset('index-CvM_PX9O.css', { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('body { margin: 0; }\n');
  });

  it('answers 404 for a file the build does not have, and for any name that is not a plain asset name', async () => {
    for (const file of [
      'index-missing.js',
      'index-Yo1wLI0K.js.gz',
      'index.html',
      '..%2Findex.html',
      '%2E%2E%2F%2E%2E%2Fpackage.json',
      'a.exe',
    ]) {
      const response = await asset(file);
      expect(response.statusCode, file).toBe(404);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('route_not_found');
    }
  });
});
