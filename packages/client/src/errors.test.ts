import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Chartwright } from './client.js';
import { apiErrorFromResponse } from './core/error-response.js';
import {
  APIError,
  AuthenticationError,
  ChartwrightError,
  ConflictError,
  InternalServerError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.js';
import { recordingFetch, startTestServer, type TestServer } from './test-support/server.js';

const UNKNOWN_KEY = 'sk_test_ThisKeyWasNeverIssuedByTheService0123';

let server: TestServer;
afterEach(async () => {
  await server.close();
});

function client(apiKey: string, options: { maxRetries?: number } = {}) {
  const recorded = recordingFetch();
  const chartwright = new Chartwright({ apiKey, baseUrl: server.baseUrl, fetch: recorded.fetch, ...options });
  return { chartwright, attempts: recorded.attempts };
}

/** The rejection of `promise`, which must be a `type`. */
async function failure<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

/** The error's every human-readable rendering must be free of the credential. */
function expectNoSecret(error: Error, secret: string): void {
  const renderings = [error.message, String(error), error.stack ?? '', JSON.stringify(error)];
  for (const rendering of renderings) expect(rendering).not.toContain(secret);
}

describe('errors mapped from the real service', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  it('401 for a key the service never issued is an AuthenticationError, with the request id', async () => {
    const { chartwright } = client(UNKNOWN_KEY);
    const error = await failure(chartwright.templates.list(), AuthenticationError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(ChartwrightError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'authentication_error' });
    const { requestId, headers } = error;
    expect(requestId).toMatch(/^req_/);
    expect(headers.get('x-request-id')).toBe(requestId);
    expect(error.message).toContain(requestId);
    expectNoSecret(error, UNKNOWN_KEY);
  });

  it('403 for a temporary token on a REST route is a PermissionDeniedError', async () => {
    // The library never sends a token to a REST route, so ask the service directly.
    const minted = await client(server.harness.project.testKey).chartwright.realtime.tokens.create();
    const response = await fetch(`${server.baseUrl}/api/v1/templates`, {
      headers: { authorization: `Bearer ${minted.token}` },
    });
    const error = apiErrorFromResponse(response.status, response.headers, await response.text());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'temporary_token_not_allowed', type: 'permission_error' });
    expect(error.requestId).toBe(response.headers.get('x-request-id'));
    expectNoSecret(error, minted.token);
  });

  it('404 for an unknown note is a NotFoundError', async () => {
    const { chartwright } = client(server.harness.project.testKey);
    const error = await failure(chartwright.notes.retrieve('note_doesnotexist'), NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'note_not_found', type: 'not_found_error' });
  });

  it('400 for an invalid body is an InvalidRequestError naming every bad field, and is not retried', async () => {
    const { chartwright, attempts } = client(server.harness.project.testKey);
    const error = await failure(
      chartwright.notes.create({ templateId: '', conversationText: '   ' }),
      InvalidRequestError,
    );
    expect(error).toMatchObject({ status: 400, code: 'invalid_body', param: 'template_id' });
    expect(error.details.map((detail) => detail.path)).toEqual(['template_id', 'conversation_text']);
    expect(attempts).toHaveLength(1);
  });

  it('400 for an unknown template and 413 for an over-long conversation are InvalidRequestErrors', async () => {
    const { chartwright } = client(server.harness.project.testKey);
    const unknown = await failure(
      chartwright.notes.create({ templateId: 'no_such_template', conversationText: 'Hi.' }),
      InvalidRequestError,
    );
    expect(unknown).toMatchObject({ status: 400, code: 'template_not_found' });
    const tooLong = await failure(
      chartwright.notes.create({ templateId: 'soap', conversationText: 'Doctor: hello. '.repeat(20_000) }),
      InvalidRequestError,
    );
    expect(tooLong).toMatchObject({ status: 413, code: 'conversation_too_long' });
  });

  it('429 over the rate limit is a RateLimitError carrying Retry-After', async () => {
    await server.close();
    server = await startTestServer({ config: { apiRateLimitPerMinute: 1 } });
    const { chartwright } = client(server.harness.project.testKey, { maxRetries: 0 });
    await chartwright.templates.list();
    const error = await failure(chartwright.templates.list(), RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', type: 'rate_limit_error' });
    const { retryAfterSeconds, headers } = error;
    expect(retryAfterSeconds).toBe(Number(headers.get('retry-after')));
    expect(retryAfterSeconds).toBeGreaterThan(0);
  });

  it('500 when the service fails unexpectedly is an InternalServerError', async () => {
    const { chartwright, attempts } = client(server.harness.project.testKey, { maxRetries: 0 });
    // The database going away under a running service is the realistic unexpected failure.
    await server.harness.database.close();
    const error = await failure(chartwright.templates.list(), InternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', type: 'api_error' });
    expect(error.requestId).toBe(error.headers.get('x-request-id'));
    expect(attempts).toHaveLength(1);
  });
});

describe('the class of an error answer', () => {
  it('follows the status, for statuses the service has no route for today too', () => {
    const classOf = (status: number) => apiErrorFromResponse(status, new Headers(), '').constructor;
    expect([400, 413, 415, 422].map(classOf)).toEqual(Array(4).fill(InvalidRequestError));
    expect([401, 403, 404, 409, 429].map(classOf)).toEqual([
      AuthenticationError,
      PermissionDeniedError,
      NotFoundError,
      ConflictError,
      RateLimitError,
    ]);
    expect([500, 502, 503, 504].map(classOf)).toEqual(Array(4).fill(InternalServerError));
    expect([405, 408, 418].map(classOf)).toEqual(Array(3).fill(APIError));
  });
});

describe('a response that is not a Chartwright error body', () => {
  it('keeps the status, takes the request id from the header, and copies none of the body', () => {
    const error = apiErrorFromResponse(
      502,
      new Headers({ 'x-request-id': 'lb-777777' }),
      '<html>Bad gateway for sk_live_SecretFromSomewhere</html>',
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'unknown_error', requestId: 'lb-777777' });
    expect(error.message).toBe('502 unknown_error: Request failed with status 502. (request lb-777777)');
  });
});
