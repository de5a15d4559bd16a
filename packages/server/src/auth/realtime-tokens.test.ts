import { realtimeTokenSchema, type ErrorBody } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Authenticator } from './authenticator.js';
import { hashSecret } from './secrets.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';

describe('POST /api/v1/realtime/tokens', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { bodyLimitBytes: 1024 } });
  });
  afterEach(async () => {
    await h.close();
  });

  const post = (options: { payload?: unknown; headers?: Record<string, string> } = {}) =>
    h.request({
      method: 'POST',
      url: '/api/v1/realtime/tokens',
      key: h.project.testKey,
      ...(options.payload === undefined ? {} : { payload: options.payload as string }),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
    });

  it('mints a token with the requested lifetime', async () => {
    const response = await post({ payload: { expiresInSeconds: 600 } });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = realtimeTokenSchema.parse(response.json());
    expect(body.token).toMatch(/^svc_rt_[0-9A-Za-z]{43}$/);
    expect(body.expiresAt).toBe(new Date(h.clock.now() + 600_000).toISOString());
    expect(Object.keys(response.json<object>()).sort()).toEqual(['expiresAt', 'token', 'wsUrl']);
  });

  it('caps expiresAt at the end of its key’s rotation grace period, when the token is refused', async () => {
    const { replacement } = await h.keys.rotate(h.project.testKeyId, { graceSeconds: 600 });
    h.clock.advance(100_000);
    const graceEnd = h.clock.now() + 500_000;
    const response = await post({ payload: { expiresInSeconds: 3600 } });
    expect(response.statusCode, response.body).toBe(201);
    const { token, expiresAt } = realtimeTokenSchema.parse(response.json());
    expect(expiresAt).toBe(new Date(graceEnd).toISOString());
    // The key that replaced it has no grace end: its tokens get the lifetime asked for.
    const fromReplacement = await h.request({
      method: 'POST',
      url: '/api/v1/realtime/tokens',
      key: replacement.secret,
      payload: { expiresInSeconds: 3600 },
    });
    expect(fromReplacement.json<{ expiresAt: string }>().expiresAt).toBe(
      new Date(h.clock.now() + 3_600_000).toISOString(),
    );
    // Honoured until the instant it reports, refused from then on.
    const authenticator = new Authenticator(h.repositories, h.clock, h.database.credentialChanges);
    h.clock.advance(graceEnd - 1 - h.clock.now());
    await expect(authenticator.authenticate(token)).resolves.toMatchObject({ expiresAt: graceEnd });
    h.clock.advance(1);
    await expect(authenticator.authenticate(token)).rejects.toMatchObject({ status: 401 });
  });

  it.each([
    ['no body at all', undefined, undefined],
    ['an empty JSON body', '', { 'content-type': 'application/json' }],
    ['an empty object', {}, undefined],
  ])('defaults to 3600 seconds with %s', async (_name, payload, headers) => {
    const response = await post({ payload, ...(headers === undefined ? {} : { headers }) });
    expect(response.statusCode).toBe(201);
    expect(response.json<{ expiresAt: string }>().expiresAt).toBe(new Date(h.clock.now() + 3_600_000).toISOString());
  });

  it('accepts both ends of the allowed range', async () => {
    expect((await post({ payload: { expiresInSeconds: 60 } })).statusCode).toBe(201);
    expect((await post({ payload: { expiresInSeconds: 3600 } })).statusCode).toBe(201);
  });

  it('stores only a hash of the token, bound to its project, environment and key', async () => {
    const { token } = (await post()).json<{ token: string }>();
    const stored = await h.repositories.realtimeTokens.findBySecretHash(hashSecret(token));
    expect(stored?.token).toMatchObject({
      project_id: h.project.id,
      environment: 'test',
      api_key_id: h.project.testKeyId,
      secret_hash: hashSecret(token),
    });
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  const invalid: [string, unknown, string, string][] = [
    ['below the minimum', { expiresInSeconds: 59 }, 'expiresInSeconds', 'must be at least 60'],
    ['zero', { expiresInSeconds: 0 }, 'expiresInSeconds', 'must be at least 60'],
    ['negative', { expiresInSeconds: -5 }, 'expiresInSeconds', 'must be at least 60'],
    ['above the maximum', { expiresInSeconds: 3601 }, 'expiresInSeconds', 'must be at most 3600'],
    ['a fraction', { expiresInSeconds: 90.5 }, 'expiresInSeconds', 'must be an integer'],
    ['a string', { expiresInSeconds: '3600' }, 'expiresInSeconds', 'must be a number, not a string'],
    ['null', { expiresInSeconds: null }, 'expiresInSeconds', 'must be a number, not null'],
    ['a boolean', { expiresInSeconds: true }, 'expiresInSeconds', 'must be a number, not a boolean'],
    ['an unknown field', { expiresIn: 600 }, 'expiresIn', 'is not a known field'],
    ['a snake_case name', { expires_in_seconds: 600 }, 'expires_in_seconds', 'is not a known field'],
  ];
  it.each(invalid)('refuses %s with a 400 naming the field', async (_name, payload, path, message) => {
    const response = await post({ payload });
    expect(response.statusCode).toBe(400);
    const error = response.json<ErrorBody>().error;
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_body', param: path });
    expect(error.details).toEqual([{ path, message }]);
    expect(error.message).toContain(`${path}: ${message}`);
  });

  it.each([
    ['an array', '[]', 'must be an object, not an array'],
    ['a number', '3600', 'must be an object, not a number'],
    ['a string', '"3600"', 'must be an object, not a string'],
    ['null', 'null', 'must be an object, not null'],
  ])('refuses %s as the body', async (_name, raw, message) => {
    const response = await post({ payload: raw, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    const error = response.json<ErrorBody>().error;
    expect(error.code).toBe('invalid_body');
    expect(error.details).toEqual([{ path: '', message }]);
    expect(error.message).toBe(`Invalid request body: Request body: ${message}`);
  });

  it('reports every problem at once', async () => {
    const response = await post({ payload: { expiresInSeconds: 1, extra: 1 } });
    expect(response.json<ErrorBody>().error.details).toEqual([
      { path: 'expiresInSeconds', message: 'must be at least 60' },
      { path: 'extra', message: 'is not a known field' },
    ]);
  });

  it('refuses malformed JSON', async () => {
    const response = await post({ payload: '{"expiresInSeconds": ', headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
  });

  it('refuses JSON with a __proto__ key instead of polluting objects', async () => {
    const response = await post({
      payload: '{"__proto__": {"polluted": true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'refuses a %s body with 415',
    async (type) => {
      const response = await post({ payload: 'expiresInSeconds=600', headers: { 'content-type': type } });
      expect(response.statusCode).toBe(415);
      expect(response.json<ErrorBody>().error).toMatchObject({
        type: 'unsupported_media_type_error',
        code: 'unsupported_media_type',
      });
    },
  );

  it('accepts application/json with a charset', async () => {
    const response = await post({
      payload: '{"expiresInSeconds": 120}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses a body over the limit with 413', async () => {
    const response = await post({ payload: { expiresInSeconds: 600, padding: 'x'.repeat(2000) } });
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>().error).toMatchObject({ type: 'request_too_large', code: 'request_too_large' });
  });
});
