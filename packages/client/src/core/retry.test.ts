import { describe, expect, it } from 'vitest';

import { backoffMs, isRetryableStatus, retryAfterMs } from './retry.js';

describe('isRetryableStatus', () => {
  it('retries timeouts, conflicts, rate limits and server errors, nothing else', () => {
    const retried = [408, 409, 429, 500, 502, 503, 504].filter(isRetryableStatus);
    expect(retried).toEqual([408, 409, 429, 500, 502, 503, 504]);
    expect([400, 401, 403, 404, 405, 413, 415, 422].filter(isRetryableStatus)).toEqual([]);
  });
});

describe('retryAfterMs', () => {
  const now = Date.UTC(2026, 0, 1);
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': new Date(now + 7000).toUTCString() }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': new Date(now - 7000).toUTCString() }), now)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-4' }), now)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from 0.5 s up to 8 s, shortened by at most a quarter of jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((retry) => backoffMs(retry, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(backoffMs(0, () => 0.999_999)).toBeCloseTo(375, 0);
    expect(backoffMs(4, () => 0.5)).toBe(7000);
  });
});
