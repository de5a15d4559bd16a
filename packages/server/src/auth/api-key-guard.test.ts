import { REST_ENDPOINTS, type ErrorBody } from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Authenticator } from './authenticator.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';

const authenticated = REST_ENDPOINTS.filter((spec) => spec.auth === 'api_key');
const toUrl = (path: string) => path.replace(/\{[^}]+\}/g, 'x');

async function mintToken(h: Harness, key: string, expiresInSeconds?: number): Promise<string> {
  const response = await h.request({
    method: 'POST',
    url: '/api/v1/realtime/tokens',
    key,
    payload: expiresInSeconds === undefined ? {} : { expiresInSeconds },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ token: string }>().token;
}

const errorOf = (response: LightMyRequestResponse) => response.json<ErrorBody>().error;

describe.each(TEST_DIALECTS)('authentication on %s', (dialect) => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ dialect });
  });
  afterEach(async () => {
    await h.close();
  });

  describe('capability table', () => {
    it('allows permanent keys of both environments on every REST route', async () => {
      for (const key of [h.project.testKey, h.project.liveKey]) {
        const templates = await h.request({ method: 'GET', url: '/api/v1/templates', key });
        expect(templates.statusCode).toBe(200);
        await mintToken(h, key);
      }
    });

    it('refuses a temporary token with 403 on every REST route, token creation included', async () => {
      const token = await mintToken(h, h.project.testKey);
      expect(authenticated.length).toBeGreaterThanOrEqual(2);
      for (const spec of authenticated) {
        const response = await h.request({ method: spec.method, url: toUrl(spec.path), key: token });
        expect(response.statusCode, `${spec.method} ${spec.path}`).toBe(403);
        expect(errorOf(response)).toMatchObject({ type: 'permission_error', code: 'temporary_token_not_allowed' });
      }
    });

    it('lets both a permanent key and a temporary token authenticate for the realtime WebSocket', async () => {
      const token = await mintToken(h, h.project.testKey);
      const authenticator = new Authenticator(h.repositories, h.clock, h.database.credentialChanges);
      await expect(authenticator.authenticate(h.project.testKey)).resolves.toMatchObject({
        kind: 'api_key',
        environment: 'test',
      });
      await expect(authenticator.authenticate(token)).resolves.toMatchObject({
        kind: 'realtime_token',
        environment: 'test',
        issuer: { kind: 'api_key', id: h.project.testKeyId },
      });
    });

    it('limits temporary tokens to one hour and lets them expire', async () => {
      const tooLong = await h.request({
        method: 'POST',
        url: '/api/v1/realtime/tokens',
        key: h.project.testKey,
        payload: { expiresInSeconds: 3601 },
      });
      expect(tooLong.statusCode).toBe(400);
      const token = await mintToken(h, h.project.testKey, 3600);
      const authenticator = new Authenticator(h.repositories, h.clock, h.database.credentialChanges);
      h.clock.advance(3600 * 1000 - 1);
      await expect(authenticator.authenticate(token)).resolves.toMatchObject({ kind: 'realtime_token' });
      h.clock.advance(1);
      await expect(authenticator.authenticate(token)).rejects.toMatchObject({ code: 'realtime_token_expired' });
    });

    it('keeps permanent keys working however much time passes', async () => {
      h.clock.advance(5 * 365 * 86_400_000);
      const response = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.liveKey });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('the Authorization header', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['missing', {}, 'missing_authorization'],
      ['empty', { authorization: '' }, 'missing_authorization'],
      ['not Bearer', { authorization: 'Basic dXNlcjpwYXNz' }, 'malformed_authorization'],
      ['Bearer without a key', { authorization: 'Bearer ' }, 'malformed_authorization'],
      ['two values', { authorization: 'Bearer a b' }, 'malformed_authorization'],
      ['an unknown prefix', { authorization: 'Bearer pk_test_abc' }, 'invalid_api_key'],
      ['an unknown sk_test_ key', { authorization: `Bearer sk_test_${'x'.repeat(43)}` }, 'invalid_api_key'],
      ['an unknown sk_live_ key', { authorization: `Bearer sk_live_${'x'.repeat(43)}` }, 'invalid_api_key'],
      ['an unknown svc_rt_ token', { authorization: `Bearer svc_rt_${'x'.repeat(43)}` }, 'invalid_api_key'],
      ['an absurdly long key', { authorization: `Bearer sk_test_${'x'.repeat(5000)}` }, 'invalid_api_key'],
    ];
    it.each(cases)('refuses %s with 401', async (_name, headers, code) => {
      for (const spec of authenticated) {
        const response = await h.request({ method: spec.method, url: toUrl(spec.path), headers });
        expect(response.statusCode).toBe(401);
        expect(errorOf(response)).toMatchObject({ type: 'authentication_error', code });
      }
    });

    it('accepts the scheme in any case', async () => {
      const response = await h.request({
        method: 'GET',
        url: '/api/v1/templates',
        headers: { authorization: `bearer ${h.project.testKey}` },
      });
      expect(response.statusCode).toBe(200);
    });

    it('checks the key before reading the body', async () => {
      const response = await h.request({
        method: 'POST',
        url: '/api/v1/realtime/tokens',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(errorOf(response).code).toBe('missing_authorization');
    });
  });

  describe('rotation', () => {
    it('issues the new key at once and keeps the old one for the grace period only', async () => {
      const { replacement, previous } = await h.keys.rotate(h.project.testKeyId, { graceSeconds: 600 });
      expect(replacement.secret.startsWith('sk_test_')).toBe(true);
      expect(previous.status).toBe('grace');
      const list = (key: string) => h.request({ method: 'GET', url: '/api/v1/templates', key });

      expect((await list(replacement.secret)).statusCode).toBe(200);
      expect((await list(h.project.testKey)).statusCode).toBe(200);
      h.clock.advance(600 * 1000 - 1);
      expect((await list(h.project.testKey)).statusCode).toBe(200);
      h.clock.advance(1);
      const refused = await list(h.project.testKey);
      expect(refused.statusCode).toBe(401);
      expect(errorOf(refused).code).toBe('api_key_expired');
      expect((await list(replacement.secret)).statusCode).toBe(200);
    });

    it('uses the configured grace period by default', async () => {
      await h.keys.rotate(h.project.liveKeyId);
      const list = () => h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.liveKey });
      h.clock.advance(h.config.keyRotationGraceSeconds * 1000 - 1);
      expect((await list()).statusCode).toBe(200);
      h.clock.advance(1);
      expect((await list()).statusCode).toBe(401);
    });

    it('refuses the old key at once with a zero grace period', async () => {
      await h.keys.rotate(h.project.testKeyId, { graceSeconds: 0 });
      const response = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
      expect(errorOf(response).code).toBe('api_key_expired');
    });

    it('ends the old key’s realtime tokens with its grace period', async () => {
      const token = await mintToken(h, h.project.testKey);
      await h.keys.rotate(h.project.testKeyId, { graceSeconds: 60 });
      const authenticator = new Authenticator(h.repositories, h.clock, h.database.credentialChanges);
      await expect(authenticator.authenticate(token)).resolves.toMatchObject({ expiresAt: h.clock.now() + 60_000 });
      h.clock.advance(60_000);
      await expect(authenticator.authenticate(token)).rejects.toMatchObject({ code: 'api_key_expired' });
    });
  });

  describe('revocation', () => {
    it('refuses a revoked key on the very next request', async () => {
      const before = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
      expect(before.statusCode).toBe(200);
      await h.keys.revoke(h.project.testKeyId);
      const after = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
      expect(after.statusCode).toBe(401);
      expect(errorOf(after).code).toBe('api_key_revoked');
    });

    it('stops the realtime tokens the revoked key minted, and only those', async () => {
      const doomed = await mintToken(h, h.project.testKey);
      const survivor = await mintToken(h, h.project.liveKey);
      await h.keys.revoke(h.project.testKeyId);
      const authenticator = new Authenticator(h.repositories, h.clock, h.database.credentialChanges);
      await expect(authenticator.authenticate(doomed)).rejects.toMatchObject({ code: 'api_key_revoked' });
      await expect(authenticator.authenticate(survivor)).resolves.toMatchObject({ environment: 'live' });
    });

    it('revokes a key that is in its grace period', async () => {
      await h.keys.rotate(h.project.testKeyId, { graceSeconds: 3600 });
      await h.keys.revoke(h.project.testKeyId);
      const response = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
      expect(errorOf(response).code).toBe('api_key_revoked');
    });
  });

  describe('environment and project isolation', () => {
    it('binds a token to the environment and project of the key that minted it', async () => {
      const other = await h.projects.create('Other clinic');
      const otherKey = await h.keys.create({ projectId: other.id, environment: 'test' });
      const authenticator = new Authenticator(h.repositories, h.clock, h.database.credentialChanges);
      const sandbox = await authenticator.authenticate(await mintToken(h, h.project.testKey));
      const production = await authenticator.authenticate(await mintToken(h, h.project.liveKey));
      const foreign = await authenticator.authenticate(await mintToken(h, otherKey.secret));
      expect(sandbox).toMatchObject({ projectId: h.project.id, environment: 'test' });
      expect(production).toMatchObject({ projectId: h.project.id, environment: 'live' });
      expect(foreign).toMatchObject({ projectId: other.id, environment: 'test' });
    });

    it('points each token at its own environment’s WebSocket', async () => {
      const mint = (key: string) =>
        h.request({ method: 'POST', url: '/api/v1/realtime/tokens', key }).then((r) => r.json<{ wsUrl: string }>());
      expect((await mint(h.project.testKey)).wsUrl).toBe('ws://sandbox.test/api/v1/realtime');
      expect((await mint(h.project.liveKey)).wsUrl).toBe('ws://api.test/api/v1/realtime');
    });

    it('keeps key listings per project and environment', async () => {
      const other = await h.projects.create('Other clinic');
      await h.keys.create({ projectId: other.id, environment: 'live' });
      const sandboxKeys = await h.keys.list({ projectId: h.project.id, environment: 'test' });
      expect(sandboxKeys.map((key) => key.id)).toEqual([h.project.testKeyId]);
      const otherKeys = await h.keys.list({ projectId: other.id });
      expect(otherKeys.every((key) => key.projectId === other.id && key.environment === 'live')).toBe(true);
    });
  });
});
