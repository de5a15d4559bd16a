import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '../../test-support/harness.js';

const ORIGINS = ['https://emr.example.com', 'https://charts.example.org:8443', 'http://localhost:3000'];

const openPage = (h: Harness, token?: string) =>
  h.app.inject({
    method: 'GET',
    url: token === undefined ? '/widget' : `/widget?token=${encodeURIComponent(token)}`,
  });

/** The sources of the CSP's frame-ancestors directive. */
function frameAncestors(response: LightMyRequestResponse): string[] {
  const csp = response.headers['content-security-policy'] ?? '';
  const directives = csp.split(';').map((directive) => directive.trim().split(/\s+/));
  const matching = directives.filter(([name]) => name === 'frame-ancestors');
  expect(matching, csp).toHaveLength(1);
  return matching[0]?.slice(1) ?? [];
}

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
    h = await createHarness({ config: { logLevel: 'trace' } });
    partner = await h.createPartner({ origins: ORIGINS, tokenLifetimeSeconds: 600 });
  });
  afterEach(async () => {
    await h.close();
  });

  const mint = () => h.mintWidgetToken(partner.partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' });

  it('serves the page, framable by exactly the partner’s origins', async () => {
    const { token } = await mint();
    const response = await openPage(h, token);
    expect(response.statusCode).toBe(200);
    expectPageHeaders(response);
    expect(frameAncestors(response)).toEqual(ORIGINS);
    expect(response.body).toMatch(/^<!doctype html>/i);
    expect(response.body).not.toContain(token);
  });

  it('keeps each partner’s page to its own origins', async () => {
    const other = await h.createPartner({ origins: ['https://other-emr.example.com'] });
    const { token } = await h.mintWidgetToken(other.partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' });
    expect(frameAncestors(await openPage(h, token))).toEqual(['https://other-emr.example.com']);
  });

  it('still lets the partner frame the page once the token has expired', async () => {
    const { token, expiresAt } = await mint();
    h.clock.advance(Date.parse(expiresAt) - h.clock.now() + 3_600_000);
    const response = await openPage(h, token);
    expect(response.statusCode).toBe(200);
    expectPageHeaders(response);
    expect(frameAncestors(response)).toEqual(ORIGINS);
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
