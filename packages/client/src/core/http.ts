import { idempotencyKeyProblem } from '@chartwright/protocol';

import { APIConnectionError, APITimeoutError, ChartwrightError, UserAbortError } from '../errors.js';
import type { Logger } from './context.js';
import { apiErrorFromResponse, errorCodeOf } from './error-response.js';
import { newIdempotencyKey } from './idempotency-key.js';
import { backoffMs, isRetryableStatus, MAX_RETRY_AFTER_MS, retryAfterMs } from './retry.js';
import { serverSentEvents, type ServerSentEvent } from './server-sent-events.js';
import { sleep } from './sleep.js';

/** Per-call overrides; every resource method takes them as its last argument. */
export interface RequestOptions {
  /** Aborts the call (an attempt in flight or the wait before a retry) with `UserAbortError`. */
  signal?: AbortSignal;
  /** Milliseconds each attempt may take, body included; defaults to the client's `timeout`. */
  timeout?: number;
  /** Defaults to the client's `maxRetries`. */
  maxRetries?: number;
  /** Extra headers for this call; they cannot replace `Authorization`. */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` of a create (1–255 printable ASCII characters); default a new random UUID
   * per call. Pass your own to make a create safe to repeat across calls (after a crash, say): the
   * service answers every request with the key, for 24 hours, with the first answer.
   */
  idempotencyKey?: string;
}

/** Where a request's bearer credential comes from, resolved (and checked) once per call. */
export interface RestCredentials {
  resolveForRest(): Promise<string>;
}

export interface HttpClientConfig {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  credentials: RestCredentials;
  logger: Logger;
  timeout: number;
  maxRetries: number;
  /** Sent on every request, below per-call headers. */
  headers: Record<string, string>;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Starts with `/api/v1/`; path segments and query already encoded. */
  path: string;
  body?: unknown;
  options?: RequestOptions | undefined;
  /**
   * `true` for a call that makes something new each time it succeeds (a note, a key, a rotation's
   * replacement): every attempt carries one `Idempotency-Key`, so the service answers a retry with
   * the first answer rather than making another, and the call is retried like any other.
   */
  create?: boolean;
  /** `csv`: the answer's text as it came (an export), rather than parsed JSON. Default `json`. */
  response?: 'json' | 'csv';
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Why an attempt produced no answer; the caller's abort is never retried, the others may be. */
type NoAnswer = { reason: 'timeout'; timeoutMs: number } | { reason: 'connection'; cause: unknown };

/** The REST transport: one call = up to `1 + maxRetries` attempts, each with its own timeout. */
export class HttpClient {
  constructor(private readonly config: HttpClientConfig) {}

  async request<T>(request: ApiRequest): Promise<T> {
    const options = request.options ?? {};
    const signal = options.signal;
    if (signal?.aborted === true) throw new UserAbortError({ cause: signal.reason });
    const credential = await this.config.credentials.resolveForRest();
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const timeoutMs = options.timeout ?? this.config.timeout;
    const idempotencyKey = request.create === true ? idempotencyKeyFor(options) : undefined;
    const init: RequestInit = {
      method: request.method,
      headers: {
        accept: request.response === 'csv' ? 'text/csv' : 'application/json',
        ...this.config.headers,
        ...options.headers,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
        authorization: `Bearer ${credential}`,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    };
    const url = `${this.config.baseUrl}${request.path}`;

    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(url, init, timeoutMs, signal);
      const retriesLeft = maxRetries - attempt + 1;
      if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
        return (request.response === 'csv' ? outcome.text : parseSuccess(outcome)) as T;
      }

      const retryable = mayRetry(outcome, request.create === true);
      const delayMs = retryable && retriesLeft > 0 ? retryDelayMs(outcome, attempt - 1) : undefined;
      if (delayMs === undefined) throw errorOf(outcome);
      this.config.logger.debug('retrying request', {
        method: request.method,
        path: request.path,
        attempt,
        retriesLeft,
        delayMs,
        ...('status' in outcome ? { status: outcome.status } : { reason: outcome.reason }),
      });
      await sleep(delayMs, signal);
    }
  }

  /**
   * A GET answered with Server-Sent Events: its events as they arrive. Opening the stream is one
   * attempt under the call's timeout, and an error answer throws as `request` would; the events then
   * come for as long as the service sends them, until the caller's signal stops them.
   */
  async *events(request: Pick<ApiRequest, 'path' | 'options'>): AsyncGenerator<ServerSentEvent> {
    const options = request.options ?? {};
    const { signal } = options;
    // A function, not a narrowed value: the signal may abort at any await.
    const stoppedByCaller = () => signal?.aborted === true;
    if (stoppedByCaller()) throw new UserAbortError({ cause: signal?.reason });
    const credential = await this.config.credentials.resolveForRest();
    const timeoutMs = options.timeout ?? this.config.timeout;
    const controller = new AbortController();
    const forwardAbort = () => controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const timer = setTimeout(forwardAbort, timeoutMs);
    try {
      let response: Response;
      try {
        response = await this.config.fetch(`${this.config.baseUrl}${request.path}`, {
          method: 'GET',
          headers: {
            ...this.config.headers,
            ...options.headers,
            accept: 'text/event-stream',
            authorization: `Bearer ${credential}`,
          },
          signal: controller.signal,
        });
      } catch (error) {
        if (stoppedByCaller()) throw new UserAbortError({ cause: signal?.reason });
        throw errorOf(
          controller.signal.aborted ? { reason: 'timeout', timeoutMs } : { reason: 'connection', cause: error },
        );
      } finally {
        clearTimeout(timer);
      }
      if (response.status < 200 || response.status >= 300) {
        throw errorOf({ status: response.status, headers: response.headers, text: await response.text() });
      }
      if (response.body !== null) yield* serverSentEvents(response.body);
    } catch (error) {
      if (signal?.aborted === true && !(error instanceof UserAbortError))
        throw new UserAbortError({ cause: signal.reason });
      throw error;
    } finally {
      // A consumer that stopped reading early closes the connection.
      controller.abort();
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  private async attempt(
    url: string,
    init: RequestInit,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Answer | NoAnswer> {
    // One controller per attempt, aborted by this attempt's timer or by the caller's signal.
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort();
    }, timeoutMs);
    const forwardAbort = () => controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const response = await this.config.fetch(url, { ...init, signal: controller.signal });
      // The body is read under the same timer: a server that stalls mid-body is a timeout too.
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (signal?.aborted === true) throw new UserAbortError({ cause: signal.reason });
      // Not the caller's signal, so the attempt's own timer aborted it.
      if (controller.signal.aborted) return { reason: 'timeout', timeoutMs };
      return { reason: 'connection', cause: error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }
}

function parseSuccess(answer: Answer): unknown {
  if (answer.text === '') return undefined;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch (error) {
    throw new ChartwrightError(
      `The service answered ${answer.status} with a body that is not JSON.`,
      'invalid_response',
      {
        cause: error,
      },
    );
  }
}

/**
 * Whether another attempt may succeed. Every call is safe to repeat: reads and deletes by their
 * nature, creates by their Idempotency-Key, whose first answer (a new key's secret included) the
 * service gives again to a retry after a timeout, a reset or a 5xx. A create's conflict is that
 * first answer too (a key already rotated, the Idempotency-Key used for other parameters), so only
 * `idempotency_key_in_use` — the first attempt still running — is worth another try.
 */
function mayRetry(outcome: Answer | NoAnswer, create: boolean): boolean {
  if (!('status' in outcome)) return true;
  if (create && outcome.status === 409) return errorCodeOf(outcome.text) === 'idempotency_key_in_use';
  return isRetryableStatus(outcome.status);
}

/** The caller's key, checked before anything is sent, else a new one for this call. */
function idempotencyKeyFor(options: RequestOptions): string {
  const key = options.idempotencyKey;
  if (key === undefined) return newIdempotencyKey();
  const problem = typeof key === 'string' ? idempotencyKeyProblem(key) : 'must be a string';
  if (problem !== null) throw new ChartwrightError(`idempotencyKey ${problem}.`, 'invalid_argument');
  return key;
}

/** How long to wait before the next attempt, or `undefined` when the wait asked for is too long to take. */
function retryDelayMs(outcome: Answer | NoAnswer, retry: number): number | undefined {
  const asked = 'headers' in outcome ? retryAfterMs(outcome.headers) : undefined;
  if (asked === undefined) return backoffMs(retry);
  return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
}

function errorOf(outcome: Answer | NoAnswer): ChartwrightError {
  if ('status' in outcome) return apiErrorFromResponse(outcome.status, outcome.headers, outcome.text);
  if (outcome.reason === 'timeout') return new APITimeoutError(outcome.timeoutMs);
  return new APIConnectionError(undefined, { cause: outcome.cause });
}
