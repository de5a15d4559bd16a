/** TOKEN_EXPIRING goes out this long before expiry at most… */
export const TOKEN_EXPIRING_MARGIN_MS = 5 * 60_000;
/** …and never earlier than this share of the token's lifetime before it (a 5-minute token warns 1 minute ahead). */
const MARGIN_SHARE_OF_LIFETIME = 0.2;

/** `iat` and `exp` of a JWT, read without verifying it (the service verifies; this only schedules). */
export function jwtTimes(token: string): { issuedAtMs: number; expiresAtMs: number } | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const json = atob(payload.replaceAll('-', '+').replaceAll('_', '/'));
    const { iat, exp } = JSON.parse(json) as { iat?: unknown; exp?: unknown };
    if (typeof iat !== 'number' || typeof exp !== 'number') return null;
    return { issuedAtMs: iat * 1000, expiresAtMs: exp * 1000 };
  } catch {
    return null;
  }
}

export interface TokenSchedule {
  /** When to send TOKEN_EXPIRING, from now (0: at once), and the expiresInMs it carries then. */
  expiringInMs: number;
  /** When the token is over (TOKEN_EXPIRED), from now; 0 when it already is. */
  expiredInMs: number;
}

/**
 * When to warn the EMR and when the token is over. Times are the service's: `nowMs` is the local
 * clock corrected by the offset the page was served with.
 */
export function tokenSchedule(expiresAtMs: number, lifetimeMs: number, nowMs: number): TokenSchedule {
  const margin = Math.min(TOKEN_EXPIRING_MARGIN_MS, Math.max(0, lifetimeMs) * MARGIN_SHARE_OF_LIFETIME);
  const expiredInMs = Math.max(0, expiresAtMs - nowMs);
  return { expiringInMs: Math.max(0, expiredInMs - margin), expiredInMs };
}
