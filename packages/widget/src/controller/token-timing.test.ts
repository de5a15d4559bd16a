import { describe, expect, it } from 'vitest';

import { jwtTimes, TOKEN_EXPIRING_MARGIN_MS, tokenSchedule } from './token-timing.js';

const HOUR = 3_600_000;

function jwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'EdDSA' })}.${part(payload)}.signature`;
}

describe('jwtTimes', () => {
  it('reads iat and exp in ms', () => {
    expect(jwtTimes(jwt({ iat: 1_700_000_000, exp: 1_700_086_400, sub: 'cln_1' }))).toEqual({
      issuedAtMs: 1_700_000_000_000,
      expiresAtMs: 1_700_086_400_000,
    });
  });

  it('is null for anything that is not a JWT with both', () => {
    for (const token of ['', 'abc', 'a.!!!.c', jwt({ exp: 5 }), jwt({ iat: '1', exp: 2 })]) {
      expect(jwtTimes(token)).toBeNull();
    }
  });
});

describe('tokenSchedule', () => {
  it('warns five minutes ahead of a day-long token', () => {
    const now = 1_000_000;
    expect(tokenSchedule(now + 24 * HOUR, 24 * HOUR, now)).toEqual({
      expiringInMs: 24 * HOUR - TOKEN_EXPIRING_MARGIN_MS,
      expiredInMs: 24 * HOUR,
    });
  });

  it('warns a fifth of a short token’s lifetime ahead', () => {
    expect(tokenSchedule(300_000, 300_000, 0)).toEqual({ expiringInMs: 240_000, expiredInMs: 300_000 });
  });

  it('warns at once inside the margin, and is over at once past expiry', () => {
    expect(tokenSchedule(60_000, 24 * HOUR, 0)).toEqual({ expiringInMs: 0, expiredInMs: 60_000 });
    expect(tokenSchedule(0, 24 * HOUR, 10_000)).toEqual({ expiringInMs: 0, expiredInMs: 0 });
  });
});
