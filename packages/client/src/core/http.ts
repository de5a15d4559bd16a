import { APIConnectionError, APITimeoutError, ChartwrightError, UserAbortError } from '../errors.js';
import type { Logger } from './context.js';
import { apiErrorFromResponse } from './error-response.js';
import { backoffMs, isRetryableStatus, MAX_RETRY_AFTER_MS, neverConnected, retryAfterMs } from './retry.js';
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
   * `false` for a call that makes something new each time it succeeds (a key, a rotation's
   * replacement): it is retried only when the service certainly did not act on it. Default `true`.
   */
  idempotent?: boolean;
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
    const init: RequestInit = {
      method: request.method,
      headers: {
        accept: request.response === 'csv' ? 'text/csv' : 'application/json',
        ...this.config.headers,
        ...options.headers,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
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

      const retryable = mayRetry(outcome, request.idempotent ?? true);
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
 * Whether another attempt may succeed and is safe to make. A call that is not idempotent is tried
 * again only when the service certainly did not act on it: the rate limit refused it before any
 * handler ran (429), or no connection was ever made. After a timeout, a reset or a 5xx the service
 * may already have made the credential, and a second attempt would make another whose secret the
 * first answer (lost) was the only copy of.
 */
function mayRetry(outcome: Answer | NoAnswer, idempotent: boolean): boolean {
  if ('status' in outcome) return idempotent ? isRetryableStatus(outcome.status) : outcome.status === 429;
  return idempotent || (outcome.reason === 'connection' && neverConnected(outcome.cause));
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
