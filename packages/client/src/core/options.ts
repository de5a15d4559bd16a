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

/** What every client of the library shares: how its REST calls travel. */
export interface TransportOptions {
  /** Milliseconds one attempt of a REST call may take, response body included. Default 30000. */
  timeout?: number;
  /** Retries of a failed REST call (connection errors, 408, 409, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** Default: the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Default: warnings and errors to the console; debug and info dropped. */
  logger?: Logger;
  /** Headers sent with every REST request (not `Authorization`, which comes from the credential). */
  defaultHeaders?: Record<string, string>;
}

export interface ChartwrightOptions extends TransportOptions {
  /**
   * A permanent `sk_` key (server side only) or a temporary `svc_rt_` token (realtime only), or a
   * function returning one, called for every request and every realtime socket.
   */
  apiKey: ApiKeySource;
  /** Default `PRODUCTION_BASE_URL`; `SANDBOX_BASE_URL` or your deployment's address otherwise. */
  baseUrl?: string;
  /** Default: the global `WebSocket` (browsers, Node ≥ 22), else the `ws` package (Node). */
  WebSocket?: WebSocketConstructor;
}

/** The transport options checked, with their defaults. */
export interface ResolvedTransport {
  /** Without a trailing slash. */
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch;
  logger: Logger;
  defaultHeaders: Record<string, string>;
}

export interface ResolvedOptions extends ResolvedTransport {
  apiKey: ApiKeySource;
  WebSocket: WebSocketConstructor | undefined;
}

function baseUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return value === undefined ? 'is required' : 'must be a string';
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

/**
 * Checks `baseUrl` and the transport options, adding each problem (named by its option) to
 * `problems`; the result is undefined when there was one.
 */
export function checkTransportOptions(
  given: Partial<TransportOptions>,
  baseUrl: unknown,
  problems: string[],
): ResolvedTransport | undefined {
  const { timeout, maxRetries } = given;
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
  if (problems.length > 0 || typeof baseUrl !== 'string' || fetch === undefined) return undefined;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    timeout: timeout ?? LIMITS.clientTimeoutMs,
    maxRetries: maxRetries ?? DEFAULT_MAX_RETRIES,
    fetch,
    logger: given.logger ?? consoleLogger,
    defaultHeaders: given.defaultHeaders ?? {},
  };
}

/** Every problem with a client's options, in one error. */
export function invalidOptions(problems: readonly string[]): ChartwrightError {
  return new ChartwrightError(`Invalid Chartwright options: ${problems.join('; ')}.`, 'invalid_client_options');
}

/** Checks every option at once and reports all problems in one error, each naming its option. */
export function resolveOptions(options: ChartwrightOptions): ResolvedOptions {
  // Spread, because JavaScript callers may pass nothing at all.
  const given: Partial<ChartwrightOptions> = { ...options };
  const problems: string[] = [];
  const { apiKey } = given;
  if (typeof apiKey === 'string') {
    if (apiKey.trim() === '') problems.push('apiKey: must not be empty');
  } else if (typeof apiKey !== 'function') {
    problems.push('apiKey: is required (an sk_ key, an svc_rt_ token, or a function returning one)');
  }
  const transport = checkTransportOptions(given, given.baseUrl ?? PRODUCTION_BASE_URL, problems);
  if (given.WebSocket !== undefined && typeof given.WebSocket !== 'function') {
    problems.push('WebSocket: must be a WebSocket constructor');
  }
  if (problems.length > 0 || apiKey === undefined || transport === undefined) throw invalidOptions(problems);
  return { ...transport, apiKey, WebSocket: given.WebSocket ?? defaultWebSocket() };
}
