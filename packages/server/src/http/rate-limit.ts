import type { FastifyReply } from 'fastify';

import { AppError } from '../errors.js';
import type { RateLimitDecision } from '../ratelimit/rate-limiter.js';

/**
 * Tells the caller where it stands (`RateLimit-*` headers on every response) and refuses it with
 * 429 and `Retry-After` once over the limit.
 */
export function enforceRateLimit(reply: FastifyReply, decision: RateLimitDecision, refusal: string): void {
  reply.headers({
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  });
  if (!decision.allowed) {
    throw new AppError('rate_limited', refusal, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
  }
}
