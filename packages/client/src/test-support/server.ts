import { createHarness, type Harness, type HarnessOptions } from '@chartwright/testing/harness.js';
import type { Logger } from '../core/context.js';

/** The real Chartwright service on a local port, as the library meets it in production. */
export interface TestServer {
  harness: Harness;
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startTestServer(options: HarnessOptions = {}): Promise<TestServer> {
  const harness = await createHarness(options);
  const baseUrl = await harness.app.listen({ port: 0, host: '127.0.0.1' });
  return { harness, baseUrl, close: () => harness.close() };
}

export interface RecordedAttempt {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/**
 * The caller's `fetch`, recording every attempt the library makes. `intercept` may fail an attempt
 * (throw, or never settle until aborted) or return `undefined` to let it reach the real server.
 */
export function recordingFetch(
  intercept: (attempt: number, init: RequestInit) => Promise<Response> | undefined = () => undefined,
): { fetch: typeof globalThis.fetch; attempts: RecordedAttempt[] } {
  const attempts: RecordedAttempt[] = [];
  const fetch: typeof globalThis.fetch = (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    attempts.push({
      url,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    return intercept(attempts.length, init) ?? globalThis.fetch(input, init);
  };
  return { fetch, attempts };
}

/** An attempt lost on the network: it never answers, and fails only when its signal aborts. */
export function unanswered(init: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    const signal = init.signal;
    if (signal === undefined || signal === null) return;
    signal.addEventListener('abort', () => {
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    });
  });
}

/** An attempt refused before reaching the server, as fetch reports a refused or reset connection. */
export function connectionRefused(): Promise<Response> {
  return Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1') }));
}

export interface LogLine {
  level: keyof Logger;
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** A logger that keeps every line, for assertions on what the library reported. */
export function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: keyof Logger) => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, fields });
  };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}
