import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

import { credentialFromAuthorization, type Authenticator } from '../auth/authenticator.js';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { enforceRateLimit } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API key guard on every authenticated route. */
    principal: ApiKeyPrincipal | null;
  }
}

export interface ApiKeyGuardOptions {
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  limitPerMinute: number;
}

const MINUTE_MS = 60_000;

/**
 * Guards REST routes: a permanent sk_ key is required (temporary svc_rt_ tokens only open the
 * realtime WebSocket), then the project environment's request rate is checked. Runs before the
 * body is read, so an unauthenticated caller costs no parsing.
 */
export function apiKeyGuard(options: ApiKeyGuardOptions): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = await options.authenticator.authenticate(
      credentialFromAuthorization(request.headers.authorization),
    );
    if (principal.kind !== 'api_key') {
      throw new AppError(
        'temporary_token_not_allowed',
        'Temporary svc_rt_ tokens can only open the realtime WebSocket; call the REST API from your server with an sk_ key.',
      );
    }
    const decision = await options.rateLimiter.hit(
      `api:${principal.projectId}:${principal.environment}`,
      options.limitPerMinute,
      MINUTE_MS,
    );
    enforceRateLimit(reply, decision, `Rate limit of ${decision.limit} requests per minute exceeded.`);
    request.principal = principal;
  };
}

/** The authenticated caller of a guarded route. */
export function principalOf(request: FastifyRequest): ApiKeyPrincipal {
  if (request.principal === null) throw new Error('route is not behind the API key guard');
  return request.principal;
}
