/** First retry waits about this long; each further one twice as long, up to the maximum. */
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** A longer `Retry-After` is not waited out: the error goes to the caller, who knows whether to wait. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Timeouts, lock conflicts, rate limits and server failures may succeed when tried again. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait a response asks for, from `retry-after-ms`, `Retry-After` seconds or an HTTP date. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with jitter for retry number `retry` (0 for the first retry): 0.5 s, 1 s,
 * 2 s … capped at 8 s, each shortened by up to a quarter at random so clients that failed together
 * do not retry together.
 */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
  return base * (1 - random() * 0.25);
}
