import { randomBytes } from 'node:crypto';

import type { WidgetErrorEnvelope, WidgetSessionInfo } from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { RedisRateLimitStore } from '../ratelimit/redis-store.js';
import { TEST_REDIS_URL } from '@chartwright/testing/databases.js';
import { createHarness, type Harness, type HarnessOptions } from '@chartwright/testing/harness.js';

const TOKEN_URL = '/api/widget/token';
const DAY_MS = 86_400_000;

interface TokenRequest {
  key?: string;
  /** An object is sent as JSON; a string is sent as is, with `contentType`. */
  body?: unknown;
  contentType?: string;
  remoteAddress?: string;
  headers?: Record<string, string>;
}

function postToken(h: Harness, request: TokenRequest = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.key !== undefined) headers['x-partner-key'] = request.key;
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  else if (request.body !== undefined) headers['content-type'] = 'application/json';
  return h.app.inject({
    method: 'POST',
    url: TOKEN_URL,
    headers,
    ...(request.body === undefined
      ? {}
      : { payload: typeof request.body === 'string' ? request.body : JSON.stringify(request.body) }),
    ...(request.remoteAddress === undefined ? {} : { remoteAddress: request.remoteAddress }),
  });
}

const validBody = { userEmail: 'dr.who@clinic.example', emrUserId: 'emr-user-1' };

async function jwksOf(h: Harness): Promise<JSONWebKeySet> {
  const response = await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  expect(response.statusCode).toBe(200);
  return response.json<JSONWebKeySet>();
}

async function verifyToken(h: Harness, token: string) {
  return jwtVerify(token, createLocalJWKSet(await jwksOf(h)), {
    issuer: 'http://widget.test',
    audience: 'chartwright-widget',
    currentDate: new Date(h.clock.now()),
  });
}

function sessionOf(h: Harness, token: string): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: 'GET', url: '/api/widget/session', headers: { authorization: `Bearer ${token}` } });
}

/** The exact envelope of a widget error without field details. */
function expectWidgetError(response: LightMyRequestResponse, status: number, code: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<WidgetErrorEnvelope>()).toEqual({
    success: false,
    error: { code, message: expect.any(String) as unknown, requestId: response.headers['x-request-id'] },
  });
}

describe('POST /api/widget/token', () => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  beforeEach(async () => {
    h = await createHarness();
    partner = await h.createPartner();
  });
  afterEach(async () => {
    await h.close();
  });

  describe('success', () => {
    it('answers exactly { success, data: { token, expiresAt } } and is never cached', async () => {
      const response = await postToken(h, { key: partner.partnerKey, body: validBody });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.json<{ success: true; data: { token: string; expiresAt: string } }>();
      expect(body).toStrictEqual({
        success: true,
        data: { token: expect.any(String) as unknown, expiresAt: expect.any(String) as unknown },
      });
      expect(body.data.token.split('.')).toHaveLength(3);
      expect(new Date(body.data.expiresAt).toISOString()).toBe(body.data.expiresAt);
    });

    it('signs a JWT that verifies against the published JWKS with the documented claims', async () => {
      const now = h.clock.now();
      const { token, expiresAt } = await h.mintWidgetToken(partner.partnerKey, validBody);
      const jwks = await jwksOf(h);
      const header = decodeProtectedHeader(token);
      expect(header.alg).toBe('EdDSA');
      expect(header.kid).toEqual(expect.any(String));
      expect(jwks.keys.map((key) => key.kid)).toContain(header.kid);

      const { payload, protectedHeader } = await verifyToken(h, token);
      expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: header.kid });
      expect(payload).toStrictEqual({
        sub: expect.stringMatching(/^cln_/) as unknown,
        partner: partner.id,
        emrUserId: 'emr-user-1',
        iss: 'http://widget.test',
        aud: 'chartwright-widget',
        iat: now / 1000,
        exp: (now + DAY_MS) / 1000,
        jti: expect.any(String) as unknown,
      });
      expect(payload).not.toHaveProperty('emrSessionId');
      expect(expiresAt).toBe(new Date((payload.exp ?? 0) * 1000).toISOString());
      expect(Date.parse(expiresAt)).toBe(now + DAY_MS);
    });

    it('carries emrSessionId when given and gives every token its own jti', async () => {
      const first = await h.mintWidgetToken(partner.partnerKey, { ...validBody, emrSessionId: 'visit-42' });
      const second = await h.mintWidgetToken(partner.partnerKey, { ...validBody, emrSessionId: 'visit-42' });
      const a = (await verifyToken(h, first.token)).payload;
      const b = (await verifyToken(h, second.token)).payload;
      expect(a.emrSessionId).toBe('visit-42');
      expect(b.emrSessionId).toBe('visit-42');
      expect(a.jti).toEqual(expect.any(String));
      expect(a.jti).not.toBe(b.jti);
      expect(first.token).not.toBe(second.token);
    });

    it('uses the partner’s own token lifetime', async () => {
      const hourly = await h.createPartner({ tokenLifetimeSeconds: 3600 });
      h.clock.advance(7000);
      const now = h.clock.now();
      const { token, expiresAt } = await h.mintWidgetToken(hourly.partnerKey, validBody);
      const { payload } = await verifyToken(h, token);
      expect(payload.exp).toBe((now + 3_600_000) / 1000);
      expect(payload.iat).toBe(now / 1000);
      expect(Date.parse(expiresAt)).toBe(now + 3_600_000);
      expect(Date.parse(expiresAt)).toBe((payload.exp ?? 0) * 1000);
    });

    it('is honoured until its expiry and refused from then on', async () => {
      const { token, expiresAt } = await h.mintWidgetToken(partner.partnerKey, validBody);
      h.clock.advance(Date.parse(expiresAt) - h.clock.now() - 1);
      expect((await sessionOf(h, token)).statusCode).toBe(200);
      h.clock.advance(1);
      expectWidgetError(await sessionOf(h, token), 401, 'widget_token_expired');
      h.clock.advance(DAY_MS);
      expectWidgetError(await sessionOf(h, token), 401, 'widget_token_expired');
    });

    it('trims emrUserId, so the same clinician padded with whitespace is the same account', async () => {
      const plain = await h.mintWidgetToken(partner.partnerKey, validBody);
      const padded = await h.mintWidgetToken(partner.partnerKey, { ...validBody, emrUserId: '  emr-user-1\t' });
      const paddedClaims = (await verifyToken(h, padded.token)).payload;
      expect(paddedClaims.emrUserId).toBe('emr-user-1');
      expect(paddedClaims.sub).toBe((await verifyToken(h, plain.token)).payload.sub);
      const info = (await sessionOf(h, padded.token)).json<WidgetSessionInfo>();
      expect(info.clinician.emrUserId).toBe('emr-user-1');
    });

    it('creates the clinician on first mint, links it afterwards and keeps the latest e-mail', async () => {
      const first = await h.mintWidgetToken(partner.partnerKey, validBody);
      const second = await h.mintWidgetToken(partner.partnerKey, { ...validBody, userEmail: 'new@clinic.example' });
      const colleague = await h.mintWidgetToken(partner.partnerKey, { ...validBody, emrUserId: 'emr-user-2' });
      const otherPartner = await h.createPartner({ origins: ['https://other-emr.example.com'] });
      const elsewhere = await h.mintWidgetToken(otherPartner.partnerKey, validBody);

      const sub = async (token: string) => (await verifyToken(h, token)).payload.sub;
      expect(await sub(first.token)).toMatch(/^cln_/);
      expect(await sub(second.token)).toBe(await sub(first.token));
      expect(await sub(colleague.token)).not.toBe(await sub(first.token));
      expect(await sub(elsewhere.token)).not.toBe(await sub(first.token));

      // Both tokens name the same account, whose e-mail is now the latest one.
      for (const token of [first.token, second.token]) {
        const info = (await sessionOf(h, token)).json<WidgetSessionInfo>();
        expect(info.clinician).toEqual({
          id: await sub(first.token),
          email: 'new@clinic.example',
          emrUserId: 'emr-user-1',
          displayName: null,
        });
      }
      const otherInfo = (await sessionOf(h, elsewhere.token)).json<WidgetSessionInfo>();
      expect(otherInfo.clinician.email).toBe('dr.who@clinic.example');
      expect(otherInfo.partner.id).toBe(otherPartner.id);
    });
  });

  describe('invalid bodies', () => {
    it.each<[string, unknown, string]>([
      ['a malformed userEmail', { ...validBody, userEmail: 'not-an-email' }, 'userEmail'],
      ['a missing userEmail', { emrUserId: 'emr-user-1' }, 'userEmail'],
      ['a missing emrUserId', { userEmail: validBody.userEmail }, 'emrUserId'],
      ['an empty emrUserId', { ...validBody, emrUserId: '' }, 'emrUserId'],
      ['an emrUserId of whitespace only', { ...validBody, emrUserId: ' \t\n ' }, 'emrUserId'],
      ['a non-string emrSessionId', { ...validBody, emrSessionId: 42 }, 'emrSessionId'],
      ['an unknown field', { ...validBody, role: 'admin' }, 'role'],
      ['an array', [validBody], ''],
      ['null', null, ''],
    ])('refuses %s with 400 naming the field', async (_name, body, path) => {
      const response = await postToken(h, { key: partner.partnerKey, body });
      expect(response.statusCode).toBe(400);
      const envelope = response.json<WidgetErrorEnvelope>();
      expect(envelope).toEqual({
        success: false,
        error: {
          code: 'invalid_body',
          message: expect.any(String) as unknown,
          requestId: response.headers['x-request-id'],
          details: expect.arrayContaining([{ path, message: expect.any(String) as unknown }]) as unknown,
        },
      });
      if (path !== '') expect(envelope.error.message).toContain(path);
    });

    it('refuses a request without a body with 400', async () => {
      const response = await postToken(h, { key: partner.partnerKey });
      expect(response.statusCode).toBe(400);
      expect(response.json<WidgetErrorEnvelope>().error.code).toBe('invalid_body');
    });

    it('refuses malformed JSON with invalid_json', async () => {
      const response = await postToken(h, { key: partner.partnerKey, body: '{"userEmail": ' });
      expectWidgetError(response, 400, 'invalid_json');
    });

    it('refuses a body that is not JSON with 415', async () => {
      const response = await postToken(h, {
        key: partner.partnerKey,
        body: 'userEmail=a@b.example',
        contentType: 'text/plain',
      });
      expectWidgetError(response, 415, 'unsupported_media_type');
    });
  });

  describe('the partner key', () => {
    it('refuses a missing X-Partner-Key', async () => {
      expectWidgetError(await postToken(h, { body: validBody }), 401, 'missing_partner_key');
    });

    it('refuses malformed, unknown and wrong keys alike', async () => {
      const secret = partner.partnerKey.slice(partner.id.length + 1);
      for (const key of [
        'no-dot-at-all',
        `.${secret}`,
        `ptn_unknown.${secret}`,
        `${partner.id}.wrong-secret`,
        `${partner.id}.${secret}x`,
      ]) {
        expectWidgetError(await postToken(h, { key, body: validBody }), 401, 'invalid_partner_key');
      }
    });

    it('refuses the key of a revoked partner', async () => {
      await h.partners.revoke(partner.id);
      expectWidgetError(await postToken(h, { key: partner.partnerKey, body: validBody }), 401, 'partner_revoked');
    });

    it('accepts the old secret during its grace period after rotation', async () => {
      const rotated = await h.partners.rotateSecret(partner.id, { graceSeconds: 60 });
      expect((await postToken(h, { key: rotated.partnerKey, body: validBody })).statusCode).toBe(200);
      expect((await postToken(h, { key: partner.partnerKey, body: validBody })).statusCode).toBe(200);
      h.clock.advance(60_000);
      expectWidgetError(await postToken(h, { key: partner.partnerKey, body: validBody }), 401, 'invalid_partner_key');
    });

    it('answers 401 before looking at a bad body', async () => {
      const bad = `${partner.id}.wrong-secret`;
      expectWidgetError(await postToken(h, { key: bad, body: { userEmail: 'nope' } }), 401, 'invalid_partner_key');
      expectWidgetError(await postToken(h, { body: [] }), 401, 'missing_partner_key');
      expectWidgetError(await postToken(h, { key: bad, body: '{not json' }), 401, 'invalid_partner_key');
      expectWidgetError(
        await postToken(h, { key: bad, body: 'plain', contentType: 'text/plain' }),
        401,
        'invalid_partner_key',
      );
    });
  });
});

describe('POST /api/widget/token rate limit', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.close();
  });

  async function harnessWithPartner(options: HarnessOptions = {}) {
    const h = await createHarness(options);
    harnesses.push(h);
    return { h, partner: await h.createPartner() };
  }

  function expectRateLimited(response: LightMyRequestResponse): void {
    expectWidgetError(response, 429, 'rate_limited');
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }

  /** A key of the partner's id with a wrong secret: a failed authentication. */
  const guess = (partner: { id: string }, attempt: number) => `${partner.id}.guess${attempt}`;

  it('refuses every attempt from an address after 20 failed ones in a minute, before the key is checked', async () => {
    const { h, partner } = await harnessWithPartner();
    const ip = '198.51.100.10';
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const response = await postToken(h, { key: guess(partner, attempt), body: validBody, remoteAddress: ip });
      expectWidgetError(response, 401, 'invalid_partner_key');
    }
    // The right key from that address is refused too: it is not looked at.
    const refused = await postToken(h, { key: partner.partnerKey, body: validBody, remoteAddress: ip });
    expectRateLimited(refused);
    expect(refused.headers['ratelimit-limit']).toBe('20');
    expect(refused.headers['ratelimit-reset']).toBe(refused.headers['retry-after']);

    // Another address is counted on its own.
    const other = await postToken(h, { key: partner.partnerKey, body: validBody, remoteAddress: '198.51.100.11' });
    expect(other.statusCode).toBe(200);

    // Once the Retry-After has passed, the address is allowed again.
    h.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await postToken(h, { key: partner.partnerKey, body: validBody, remoteAddress: ip })).statusCode).toBe(200);
  });

  it('counts every kind of failed authentication, and never a partner’s successes, against the address', async () => {
    const { h, partner } = await harnessWithPartner();
    const revoked = await h.createPartner({ origins: ['https://old-emr.example.com'] });
    await h.partners.revoke(revoked.id);
    // A partner backend minting for a whole clinic from one address: far past 20, all served.
    for (let request = 1; request <= 100; request += 1) {
      expect((await postToken(h, { key: partner.partnerKey, body: validBody })).statusCode).toBe(200);
    }
    const failures: [TokenRequest, string][] = [
      [{ body: validBody }, 'missing_partner_key'],
      [{ key: 'no-separator', body: validBody }, 'invalid_partner_key'],
      [{ key: revoked.partnerKey, body: validBody }, 'partner_revoked'],
    ];
    const attempts = Array.from({ length: 7 }, () => failures)
      .flat()
      .slice(0, 20);
    for (const [request, code] of attempts) expectWidgetError(await postToken(h, request), 401, code);
    expectRateLimited(await postToken(h, { key: partner.partnerKey, body: validBody }));
  });

  it('limits each partner’s requests per minute, wherever they come from', async () => {
    const { h, partner } = await harnessWithPartner({ config: { widgetTokenRateLimitPerMinute: 30 } });
    for (let request = 1; request <= 30; request += 1) {
      const response = await postToken(h, {
        key: partner.partnerKey,
        body: validBody,
        remoteAddress: `192.0.2.${request}`,
      });
      expect(response.statusCode, `request ${request}`).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(30 - request));
    }
    const refused = await postToken(h, { key: partner.partnerKey, body: validBody, remoteAddress: '192.0.2.200' });
    expectRateLimited(refused);
    expect(refused.headers['ratelimit-limit']).toBe('30');
    // Another partner has its own allowance, from the same addresses.
    const other = await h.createPartner({ origins: ['https://other-emr.example.com'] });
    expect(
      (await postToken(h, { key: other.partnerKey, body: validBody, remoteAddress: '192.0.2.1' })).statusCode,
    ).toBe(200);
  });

  it('counts a partner’s requests refused for their body or content type against the partner', async () => {
    const { h, partner } = await harnessWithPartner({ config: { widgetTokenRateLimitPerMinute: 20 } });
    for (let request = 1; request <= 20; request += 1) {
      const response = await postToken(h, {
        key: partner.partnerKey,
        body: request % 2 === 0 ? '{broken' : 'plain text',
        contentType: request % 2 === 0 ? 'application/json' : 'text/plain',
      });
      expect(response.statusCode).toBe(request % 2 === 0 ? 400 : 415);
    }
    expectRateLimited(await postToken(h, { key: partner.partnerKey, body: validBody }));
  });

  it('follows X-Forwarded-For when TRUST_PROXY is on', async () => {
    const { h, partner } = await harnessWithPartner({ config: { trustProxy: 1 } });
    const proxy = '10.0.0.1';
    const from = (client: string, key: string) =>
      postToken(h, { key, body: validBody, remoteAddress: proxy, headers: { 'x-forwarded-for': client } });
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      expect((await from('203.0.113.7', guess(partner, attempt))).statusCode).toBe(401);
    }
    expectRateLimited(await from('203.0.113.7', partner.partnerKey));
    expect((await from('203.0.113.8', partner.partnerKey)).statusCode).toBe(200);
  });

  it('ignores a spoofed X-Forwarded-For when TRUST_PROXY is off', async () => {
    const { h, partner } = await harnessWithPartner();
    expect(h.config.trustProxy).toBe(0);
    const attacker = '198.51.100.66';
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const response = await postToken(h, {
        key: guess(partner, attempt),
        body: validBody,
        remoteAddress: attacker,
        headers: { 'x-forwarded-for': `203.0.113.${attempt}` },
      });
      expect(response.statusCode).toBe(401);
    }
    expectRateLimited(
      await postToken(h, {
        key: partner.partnerKey,
        body: validBody,
        remoteAddress: attacker,
        headers: { 'x-forwarded-for': '203.0.113.200' },
      }),
    );
  });

  it('takes the failure limit from widgetAuthFailuresPerMinute', async () => {
    const { h, partner } = await harnessWithPartner({ config: { widgetAuthFailuresPerMinute: 3 } });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await postToken(h, { key: guess(partner, attempt), body: validBody })).statusCode).toBe(401);
    }
    const refused = await postToken(h, { key: partner.partnerKey, body: validBody });
    expectRateLimited(refused);
    expect(refused.headers['ratelimit-limit']).toBe('3');
  });

  describe.skipIf(TEST_REDIS_URL === undefined)('across instances sharing Redis', () => {
    const prefix = `cw_test_widget_token:${randomBytes(6).toString('hex')}:`;
    const connections: Redis[] = [];
    afterEach(async () => {
      const [first] = connections;
      if (first !== undefined) {
        const keys = await first.keys(`${prefix}*`);
        if (keys.length > 0) await first.del(...keys);
      }
      for (const connection of connections.splice(0)) await connection.quit();
    });

    async function instance(options: HarnessOptions = {}) {
      const redis = new Redis(TEST_REDIS_URL ?? '', { maxRetriesPerRequest: 1 });
      connections.push(redis);
      const store = new RedisRateLimitStore(redis, prefix);
      return { ...(await harnessWithPartner({ ...options, rateLimitStore: store })), store };
    }

    it('shares one failure count per address between two instances', async () => {
      const a = await instance();
      const b = await instance();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await postToken(a.h, { key: guess(a.partner, attempt), body: validBody })).statusCode).toBe(401);
        expect((await postToken(b.h, { key: guess(b.partner, attempt), body: validBody })).statusCode).toBe(401);
      }
      expectRateLimited(await postToken(a.h, { key: a.partner.partnerKey, body: validBody }));
      expectRateLimited(await postToken(b.h, { key: b.partner.partnerKey, body: validBody }));
      // Another address still gets through on either instance.
      const other = await postToken(b.h, { key: b.partner.partnerKey, body: validBody, remoteAddress: '192.0.2.9' });
      expect(other.statusCode).toBe(200);
      expect(await connections[0]?.keys(`${prefix}*`)).not.toHaveLength(0);
    });

    it('shares one partner’s allowance between two instances', async () => {
      // Two instances of one service: one database, one Redis.
      const a = await instance({ config: { widgetTokenRateLimitPerMinute: 10 } });
      const b = await createHarness({
        database: a.h.database,
        config: { widgetTokenRateLimitPerMinute: 10 },
        rateLimitStore: a.store,
      });
      harnesses.push(b);
      for (let request = 1; request <= 5; request += 1) {
        expect((await postToken(a.h, { key: a.partner.partnerKey, body: validBody })).statusCode).toBe(200);
        expect((await postToken(b, { key: a.partner.partnerKey, body: validBody })).statusCode).toBe(200);
      }
      expectRateLimited(await postToken(b, { key: a.partner.partnerKey, body: validBody, remoteAddress: '192.0.2.9' }));
    });
  });
});
