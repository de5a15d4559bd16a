import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Chartwright, type ChartwrightOptions } from '../index.js';
import {
  APIConnectionError,
  APITimeoutError,
  ChartwrightError,
  InternalServerError,
  InvalidRequestError,
  PermissionDeniedError,
  UserAbortError,
} from '../errors.js';
import {
  capturingLogger,
  connectionRefused,
  recordingFetch,
  startTestServer,
  unanswered,
  type RecordedAttempt,
  type TestServer,
} from '../test-support/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

function client(
  intercept: Parameters<typeof recordingFetch>[0],
  options: Partial<ChartwrightOptions> = {},
): { chartwright: Chartwright; attempts: RecordedAttempt[]; log: ReturnType<typeof capturingLogger> } {
  const recorded = recordingFetch(intercept);
  const log = capturingLogger();
  const chartwright = new Chartwright({
    apiKey: server.harness.project.testKey,
    baseUrl: server.baseUrl,
    fetch: recorded.fetch,
    logger: log.logger,
    ...options,
  });
  return { chartwright, attempts: recorded.attempts, log };
}

async function failure(promise: Promise<unknown>): Promise<ChartwrightError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (rejection: unknown) => rejection,
  );
  if (!(error instanceof ChartwrightError)) throw error;
  return error;
}

function retryDelays(log: ReturnType<typeof capturingLogger>): unknown[] {
  return log.lines.filter((line) => line.message === 'retrying request').map((line) => line.fields?.['delayMs']);
}

describe('retries', () => {
  it('retries a connection error and returns the real answer', async () => {
    const { chartwright, attempts, log } = client((attempt) => (attempt === 1 ? connectionRefused() : undefined));
    const templates = await chartwright.templates.list();
    expect(templates.map((template) => template.id)).toContain('soap');
    expect(attempts).toHaveLength(2);
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        message: 'retrying request',
        fields: expect.objectContaining({ attempt: 1, retriesLeft: 2, reason: 'connection' }),
      }),
    );
  });

  it('gives up after maxRetries with an APIConnectionError carrying the cause', async () => {
    const { chartwright, attempts } = client(() => connectionRefused(), { maxRetries: 1 });
    const error = await failure(chartwright.templates.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.code).toBe('connection_error');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(attempts).toHaveLength(2);
  });

  it('retries a POST that never reached the service, creating the note once', async () => {
    const { chartwright, attempts } = client((attempt) => (attempt === 1 ? connectionRefused() : undefined));
    const note = await chartwright.notes.create({ templateId: 'soap', conversationText: 'Doctor: How are you?' });
    expect(attempts.map((attempt) => attempt.method)).toEqual(['POST', 'POST']);
    expect(attempts[1]!.body).toBe(attempts[0]!.body);
    expect(await chartwright.notes.retrieve(note.id)).toEqual(note);
  });

  it('retries 5xx answers of the service with exponential backoff', async () => {
    const { chartwright, attempts, log } = client(undefined, { maxRetries: 2 });
    await server.harness.database.close();
    const error = await failure(chartwright.templates.list());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(attempts).toHaveLength(3);
    const [first, second] = retryDelays(log) as [number, number];
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(750);
    expect(second).toBeLessThanOrEqual(1000);
  });

  it('never retries a 400', async () => {
    const { chartwright, attempts } = client(undefined, { maxRetries: 2 });
    const error = await failure(chartwright.notes.create({ templateId: 'soap', conversationText: '' }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(attempts).toHaveLength(1);
  });

  it('waits out the Retry-After of a 429 and then succeeds', async () => {
    await server.close();
    server = await startTestServer({ config: { apiRateLimitPerMinute: 2 } });
    const { harness } = server;
    const windowMs = 60_000;
    // Fill the previous window so the sliding count refuses until exactly the next window starts,
    // then stand one second before it: the service asks for a one-second wait.
    for (let hit = 0; hit < 150; hit += 1) {
      await harness.request({ method: 'GET', url: '/api/v1/templates', key: harness.project.testKey });
    }
    harness.clock.advance(2 * windowMs - (harness.clock.now() % windowMs) - 1000);
    // The service's clock is a test clock: from the first attempt on, it moves with real time.
    let last: number | undefined;
    const { chartwright, attempts, log } = client(() => {
      const now = Date.now();
      harness.clock.advance(now - (last ?? now));
      last = now;
      return undefined;
    });
    const templates = await chartwright.templates.list();
    expect(templates.length).toBeGreaterThan(0);
    expect(attempts).toHaveLength(2);
    expect(retryDelays(log)).toEqual([1000]);
    expect(log.lines[0]!.fields).toMatchObject({ status: 429 });
  });
});

describe('timeouts', () => {
  it('aborts an attempt that takes longer than the timeout and retries it', async () => {
    const signals: AbortSignal[] = [];
    const { chartwright, attempts } = client(
      (attempt, init) => {
        signals.push(init.signal!);
        return attempt === 1 ? unanswered(init) : undefined;
      },
      { timeout: 100 },
    );
    const templates = await chartwright.templates.list();
    expect(templates.length).toBeGreaterThan(0);
    expect(attempts).toHaveLength(2);
    expect(signals[0]!.aborted).toBe(true);
  });

  it('throws APITimeoutError once every attempt timed out', async () => {
    const { chartwright, attempts } = client((_attempt, init) => unanswered(init), { timeout: 50, maxRetries: 1 });
    const error = await failure(chartwright.templates.list());
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ code: 'timeout', message: 'The request timed out after 50 ms.' });
    expect(attempts).toHaveLength(2);
  });

  it('takes a per-call timeout and maxRetries over the client’s', async () => {
    const { chartwright, attempts } = client((_attempt, init) => unanswered(init), { timeout: 60_000 });
    const error = await failure(chartwright.templates.list({ timeout: 30, maxRetries: 0 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(attempts).toHaveLength(1);
  });
});

describe('the caller’s AbortSignal', () => {
  it('aborts a request in flight with UserAbortError and no retry', async () => {
    const controller = new AbortController();
    const { chartwright, attempts } = client((_attempt, init) => {
      setTimeout(() => controller.abort(), 20);
      return unanswered(init);
    });
    const error = await failure(chartwright.templates.list({ signal: controller.signal }));
    expect(error).toBeInstanceOf(UserAbortError);
    expect(error.code).toBe('aborted');
    expect(attempts).toHaveLength(1);
  });

  it('aborts the wait before a retry', async () => {
    const controller = new AbortController();
    const { chartwright, attempts } = client(() => connectionRefused(), {
      logger: {
        ...capturingLogger().logger,
        debug: (message) => {
          if (message === 'retrying request') controller.abort();
        },
      },
    });
    const error = await failure(chartwright.templates.list({ signal: controller.signal }));
    expect(error).toBeInstanceOf(UserAbortError);
    expect(attempts).toHaveLength(1);
  });

  it('makes no request when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { chartwright, attempts } = client(undefined);
    expect(await failure(chartwright.templates.list({ signal: controller.signal }))).toBeInstanceOf(UserAbortError);
    expect(attempts).toHaveLength(0);
  });
});

describe('a temporary svc_rt_ token as the apiKey', () => {
  it('fails every REST call fast with PermissionDeniedError and no network call', async () => {
    const minting = client(undefined);
    const { token } = await minting.chartwright.realtime.tokens.create({ expiresInSeconds: 300 });
    const { chartwright, attempts } = client(undefined, { apiKey: token });
    const calls = [
      chartwright.templates.list(),
      chartwright.notes.create({ templateId: 'soap', conversationText: 'Doctor: Hello.' }),
      chartwright.notes.retrieve('note_123'),
      chartwright.realtime.tokens.create(),
    ];
    for (const call of calls) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect(error).toMatchObject({ status: 403, code: 'temporary_token_not_allowed', requestId: undefined });
      expect(error.message).toMatch(/realtime WebSocket/);
      expect(error.message).not.toContain(token);
    }
    expect(attempts).toHaveLength(0);
  });
});
