import { errorBodySchema, widgetErrorEnvelopeSchema, type ErrorBody } from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';

describe('the REST error contract', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers an unknown route with 404 and the error body', async () => {
    const response = await h.request({ method: 'GET', url: '/api/v1/nope', key: h.project.testKey });
    expect(response.statusCode).toBe(404);
    const body = errorBodySchema.parse(response.json());
    expect(body.error).toMatchObject({ type: 'not_found_error', code: 'route_not_found' });
    expect(body.error.requestId).toBe(response.headers['x-request-id']);
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const response = await h.request({ method: 'DELETE', url: '/api/v1/templates', key: h.project.testKey });
    expect(response.statusCode).toBe(405);
    expect(response.headers['allow']).toBe('GET, HEAD');
    expect(errorBodySchema.parse(response.json()).error).toMatchObject({
      type: 'method_not_allowed_error',
      code: 'method_not_allowed',
    });
    const post = await h.request({ method: 'GET', url: '/api/v1/realtime/tokens', key: h.project.testKey });
    expect(post.statusCode).toBe(405);
    expect(post.headers['allow']).toBe('POST');
  });

  it('answers unknown paths and wrong methods of the widget API in its envelope, and no others', async () => {
    const widgetApi = [
      { method: 'GET', url: '/api/widget/nope', status: 404, code: 'route_not_found' },
      { method: 'GET', url: '/api/widget/?x=1', status: 404, code: 'route_not_found' },
      { method: 'GET', url: '/api/widget/token', status: 405, code: 'method_not_allowed', allow: 'POST' },
      {
        method: 'PATCH',
        url: '/api/widget/encounters/ses_1',
        status: 405,
        code: 'method_not_allowed',
        allow: 'DELETE, GET, HEAD',
      },
      {
        method: 'PUT',
        url: '/api/widget/documents/doc_1/pdf',
        status: 405,
        code: 'method_not_allowed',
        allow: 'GET, HEAD',
      },
    ] as const;
    for (const expected of widgetApi) {
      const response = await h.request({ method: expected.method, url: expected.url });
      expect(response.statusCode, expected.url).toBe(expected.status);
      expect(response.headers['allow'], expected.url).toBe('allow' in expected ? expected.allow : undefined);
      const { error } = widgetErrorEnvelopeSchema.parse(response.json());
      expect(error, expected.url).toMatchObject({ code: expected.code, requestId: response.headers['x-request-id'] });
    }
    for (const url of ['/api/widget', '/widget/nope', '/api/widgets/token']) {
      const response = await h.request({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(errorBodySchema.parse(response.json()).error.code, url).toBe('route_not_found');
    }
    const page = await h.request({ method: 'POST', url: '/widget' });
    expect(page.statusCode).toBe(405);
    expect(errorBodySchema.parse(page.json()).error.code).toBe('method_not_allowed');
  });

  it('answers malformed JSON with 400 and the error body', async () => {
    const response = await h.request({
      method: 'POST',
      url: '/api/v1/realtime/tokens',
      key: h.project.testKey,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(response.statusCode).toBe(400);
    expect(errorBodySchema.parse(response.json()).error.code).toBe('invalid_json');
  });

  it('answers a wrong content type with 415 and the error body', async () => {
    const response = await h.request({
      method: 'POST',
      url: '/api/v1/realtime/tokens',
      key: h.project.testKey,
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
    expect(errorBodySchema.parse(response.json()).error.code).toBe('unsupported_media_type');
  });

  it('puts x-request-id on every response, successes and errors alike', async () => {
    const responses = await Promise.all([
      h.request({ method: 'GET', url: '/healthz' }),
      h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey }),
      h.request({ method: 'GET', url: '/api/v1/templates' }),
      h.request({ method: 'GET', url: '/missing' }),
      h.request({ method: 'PUT', url: '/healthz' }),
    ]);
    const ids = responses.map((response) => response.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{9}[0-9A-Za-z]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps a well-formed incoming request id and replaces a suspicious one', async () => {
    const kept = await h.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-1234-abcd' } });
    expect(kept.headers['x-request-id']).toBe('lb-1234-abcd');
    const replaced = await h.request({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'x\u0000evil log line' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^req_/);
  });

  it('turns an unexpected failure into an opaque 500 that leaks nothing', async () => {
    // The database going away under a running service is the realistic unexpected failure.
    await h.database.close();
    const response = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
    expect(response.statusCode).toBe(500);
    const error = errorBodySchema.parse(response.json()).error;
    expect(error).toEqual({
      type: 'api_error',
      code: 'internal_error',
      message: 'Something went wrong on our side.',
      requestId: response.headers['x-request-id'],
    });
    expect(response.body).not.toMatch(/database|sqlite|stack|at /i);
    const logged = h.logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 50, requestId: error.requestId, msg: 'unhandled error' }),
    );
  });
});

describe('rate limiting', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ config: { apiRateLimitPerMinute: 3 } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers 429 with Retry-After past the limit, and recovers', async () => {
    const call = () => h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
    // Start at the beginning of a minute so the sliding window is easy to reason about.
    h.clock.advance(60_000 - (h.clock.now() % 60_000));
    for (let index = 0; index < 3; index += 1) {
      const ok = await call();
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-limit']).toBe('3');
      expect(ok.headers['ratelimit-remaining']).toBe(String(2 - index));
    }
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(120);
    // Both headers say when to come back, and say the same.
    expect(limited.headers['ratelimit-reset']).toBe(limited.headers['retry-after']);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.json<ErrorBody>().error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    h.clock.advance(retryAfter * 1000);
    expect((await call()).statusCode).toBe(200);
  });

  it('counts sandbox and production separately', async () => {
    for (let index = 0; index < 4; index += 1) {
      await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey });
    }
    const live = await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.liveKey });
    expect(live.statusCode).toBe(200);
  });
});
