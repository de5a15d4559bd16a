import { rmSync } from 'node:fs';
import { join } from 'node:path';

import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  BUILT_SCRIPT,
  builtAssetTests,
  cspOf,
  expectAppPageHeaders,
  writeAppBuild,
} from '@chartwright/testing/app-build.js';
import { createHarness, type Harness, type HarnessOptions } from '@chartwright/testing/harness.js';

const ORIGINS = ['https://emr.example.com', 'https://charts.example.org:8443', 'http://localhost:3000'];

const openPage = (h: Harness, token?: string) =>
  h.app.inject({
    method: 'GET',
    url: token === undefined ? '/widget' : `/widget?token=${encodeURIComponent(token)}`,
  });

const frameAncestors = (response: LightMyRequestResponse) => cspOf(response).get('frame-ancestors');

/** The data the page hands the app before it makes any request. */
function bootOf(response: LightMyRequestResponse): { serverNow: number; frameOrigins: string[] } {
  const match = /<script id="chartwright-boot" type="application\/json">(.*?)<\/script><\/head>/.exec(response.body);
  expect(match, response.body).not.toBeNull();
  return JSON.parse(match?.[1] ?? '{}') as { serverNow: number; frameOrigins: string[] };
}

let appDir: string;
beforeAll(() => {
  appDir = writeAppBuild('widget');
});
afterAll(() => rmSync(appDir, { recursive: true, force: true }));

const harness = (options: HarnessOptions = {}) =>
  createHarness({ ...options, config: { logLevel: 'trace', widgetAppDir: appDir, ...options.config } });

function expectUnframeable(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(401);
  expectAppPageHeaders(response);
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
    expectAppPageHeaders(response);
    expect(frameAncestors(response)).toEqual(ORIGINS);
    expect(response.body).toMatch(/^<!doctype html>/i);
    expect(response.body).toContain(`<script type="module" crossorigin src="/widget/assets/${BUILT_SCRIPT.file}">`);
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
    const csp = cspOf(await openPage(h, (await mint()).token));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
  });

  it('says how to build the app when it is not built, still only to the partner’s frame', async () => {
    await h.close();
    h = await harness({ config: { widgetAppDir: join(appDir, 'missing') } });
    partner = await h.createPartner({ origins: ORIGINS, tokenLifetimeSeconds: 600 });
    const response = await openPage(h, (await mint()).token);
    expect(response.statusCode).toBe(503);
    expectAppPageHeaders(response);
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
    expectAppPageHeaders(response);
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

  builtAssetTests('widget', () => h);
});
