import { LIMITS } from '@chartwright/protocol';

import { ChartwrightError } from '../errors.js';
import type { Logger, WebSocketConstructor } from './context.js';
import type { ApiKeySource } from './credentials.js';
import { consoleLogger } from './logger.js';

/**
 * The production API address of a service run with its defaults (`PUBLIC_BASE_URL`,
 * `http://localhost:$PORT`). A self-hosted deployment passes its own address as `baseUrl`.
 */
export const PRODUCTION_BASE_URL = 'http://localhost:8080';
/**
 * The sandbox API address of a service run with its defaults (`SANDBOX_BASE_URL` defaults to
 * `PUBLIC_BASE_URL`: one process serves both environments and the key's `sk_test_` prefix selects
 * the sandbox). Use it with `baseUrl: SANDBOX_BASE_URL` and an `sk_test_` key.
 */
export const SANDBOX_BASE_URL = 'http://localhost:8080';

export const DEFAULT_MAX_RETRIES = 2;

export interface ChartwrightOptions {
  /**
   * A permanent `sk_` key (server side only) or a temporary `svc_rt_` token (realtime only), or a
   * function returning one, called for every request and every realtime socket.
   */
  apiKey: ApiKeySource;
  /** Default `PRODUCTION_BASE_URL`; `SANDBOX_BASE_URL` or your deployment's address otherwise. */
  baseUrl?: string;
  /** Milliseconds one attempt of a REST call may take, response body included. Default 30000. */
  timeout?: number;
  /** Retries of a failed REST call (connection errors, 408, 409, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** Default: the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Default: the global `WebSocket` (browsers, Node ≥ 22), else the `ws` package (Node). */
  WebSocket?: WebSocketConstructor;
  /** Default: warnings and errors to the console; debug and info dropped. */
  logger?: Logger;
  /** Headers sent with every REST request (not `Authorization`, which comes from `apiKey`). */
  defaultHeaders?: Record<string, string>;
}

export interface ResolvedOptions {
  apiKey: ApiKeySource;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch;
  WebSocket: WebSocketConstructor | undefined;
  logger: Logger;
  defaultHeaders: Record<string, string>;
}

function baseUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'must be an http:// or https:// address';
  } catch {
    return 'must be an absolute http:// or https:// address';
  }
}

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function defaultFetch(): typeof globalThis.fetch | undefined {
  // Bound: browsers throw "Illegal invocation" when fetch is called with another `this`.
  return typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined;
}

function defaultWebSocket(): WebSocketConstructor | undefined {
  const global = globalThis as { WebSocket?: unknown };
  return typeof global.WebSocket === 'function' ? (global.WebSocket as WebSocketConstructor) : undefined;
}

/** Checks every option at once and reports all problems in one error, each naming its option. */
export function resolveOptions(options: ChartwrightOptions): ResolvedOptions {
  // Spread, because JavaScript callers may pass nothing at all.
  const given: Partial<ChartwrightOptions> = { ...options };
  const problems: string[] = [];
  const { apiKey, timeout, maxRetries } = given;
  if (typeof apiKey === 'string') {
    if (apiKey.trim() === '') problems.push('apiKey: must not be empty');
  } else if (typeof apiKey !== 'function') {
    problems.push('apiKey: is required (an sk_ key, an svc_rt_ token, or a function returning one)');
  }
  const baseUrl = given.baseUrl ?? PRODUCTION_BASE_URL;
  const baseUrlIssue = baseUrlProblem(baseUrl);
  if (baseUrlIssue !== undefined) problems.push(`baseUrl: ${baseUrlIssue}`);
  if (timeout !== undefined && !isPositiveNumber(timeout)) {
    problems.push('timeout: must be a positive number of milliseconds');
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    problems.push('maxRetries: must be a whole number, 0 or more');
  }
  const fetch = given.fetch ?? defaultFetch();
  if (typeof fetch !== 'function') problems.push('fetch: no global fetch here; pass one');
  if (given.WebSocket !== undefined && typeof given.WebSocket !== 'function') {
    problems.push('WebSocket: must be a WebSocket constructor');
  }
  if (problems.length > 0 || apiKey === undefined || fetch === undefined) {
    throw new ChartwrightError(`Invalid Chartwright options: ${problems.join('; ')}.`, 'invalid_client_options');
  }
  return {
    apiKey,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    timeout: timeout ?? LIMITS.clientTimeoutMs,
    maxRetries: maxRetries ?? DEFAULT_MAX_RETRIES,
    fetch,
    WebSocket: given.WebSocket ?? defaultWebSocket(),
    logger: given.logger ?? consoleLogger,
    defaultHeaders: given.defaultHeaders ?? {},
  };
}
