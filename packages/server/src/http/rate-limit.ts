import type { FastifyReply } from 'fastify';

import { AppError } from '../errors.js';
import type { RateLimitDecision, RateLimiter } from '../ratelimit/rate-limiter.js';

export const MINUTE_MS = 60_000;

/**
 * Every limit that can refuse a request with 429, by what it counts: the `limiter` label of
 * `chartwright_rate_limit_refusals_total` (docs/operations.md).
 */
export const RATE_LIMITERS = [
  'rest_api_project',
  'management_organisation',
  'widget_token_partner',
  'widget_token_failures_address',
  'widget_api_clinician',
  'widget_api_partner',
  'widget_api_failures_address',
  'console_link_failures_address',
  'console_sign_in_email',
  'console_sign_in_address',
  'console_sso_start_address',
  'admin_token_failures_address',
] as const;
export type RateLimiterName = (typeof RATE_LIMITERS)[number];

/** A 429: the rate_limited error, saying which limit refused (for the metrics, never the caller). */
export class RateLimitRefusal extends AppError {
  constructor(
    readonly limiter: RateLimiterName,
    message: string,
    retryAfterSeconds: number,
  ) {
    super('rate_limited', message, { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

/**
 * Tells the caller where it stands (`RateLimit-*` headers on every response) and refuses it with
 * 429 and `Retry-After` once over the limit.
 */
export function enforceRateLimit(
  reply: FastifyReply,
  decision: RateLimitDecision,
  limiter: RateLimiterName,
  refusal: string,
): void {
  reply.headers({
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  });
  if (!decision.allowed) throw new RateLimitRefusal(limiter, refusal, decision.retryAfterSeconds);
}

/** Failed attempts allowed per subject and window, and what a refused caller is told. */
export interface FailureThrottle {
  limiter: RateLimiterName;
  subject: string;
  limit: number;
  windowMs: number;
  refusal: string;
  /** Which refusals count as a failed attempt; default every 401 but an expired widget token. */
  counts?: (error: AppError) => boolean;
}

const countsAsGuess = (error: AppError) => error.status === 401 && error.code !== 'widget_token_expired';

/** Failed authentications from one client address, per minute. */
export const failuresFromAddress = (
  limiter: RateLimiterName,
  subject: string,
  limitPerMinute: number,
): FailureThrottle => ({
  limiter,
  subject,
  limit: limitPerMinute,
  windowMs: MINUTE_MS,
  refusal: `Too many failed attempts from this address; at most ${limitPerMinute} a minute.`,
});

/**
 * Authenticates with failed attempts throttled per `subject` (the client address, an e-mail): past
 * the limit, every attempt is refused before its credential is looked at, so guessing costs the
 * guesser alone. Only failures count, so a partner backend or a clinic behind one address is never
 * throttled for its own successful calls; those are limited per partner and clinician once known.
 * An expired widget token is no guess (its signature verified), and widgets present one routinely
 * before they refresh it, so it does not count.
 */
export async function throttleFailures<Principal>(
  reply: FastifyReply,
  limiter: RateLimiter,
  failures: FailureThrottle,
  authenticate: () => Promise<Principal>,
): Promise<Principal> {
  const before = await limiter.peek(failures.subject, failures.limit, failures.windowMs);
  if (!before.allowed) enforceRateLimit(reply, before, failures.limiter, failures.refusal);
  try {
    return await authenticate();
  } catch (error) {
    if (error instanceof AppError && (failures.counts ?? countsAsGuess)(error)) {
      await limiter.hit(failures.subject, failures.limit, failures.windowMs);
    }
    throw error;
  }
}
