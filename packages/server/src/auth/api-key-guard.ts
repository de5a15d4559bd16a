import { AppError } from '../errors.js';
import { enforceRateLimit, MINUTE_MS } from '../http/rate-limit.js';
import type { Guard } from '../http/route.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import { credentialFromAuthorization, type Authenticator } from './authenticator.js';
import type { ApiKeyPrincipal } from './principal.js';

export interface ApiKeyGuardOptions {
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  limitPerMinute: number;
  usage: UsageRecorder;
}

/**
 * Guards the REST API: a permanent sk_ key is required (temporary svc_rt_ tokens only open the
 * realtime WebSocket), then the project environment's request rate is checked.
 */
export function apiKeyGuard(options: ApiKeyGuardOptions): Guard<'api_key', ApiKeyPrincipal> {
  return {
    auth: 'api_key',
    authenticate: async (request, reply) => {
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
      enforceRateLimit(
        reply,
        decision,
        'rest_api_project',
        `Rate limit of ${decision.limit} requests per minute exceeded.`,
      );
      options.usage.count(principal, 'restRequests');
      options.usage.keyUsed(principal.apiKeyId);
      return principal;
    },
    // The project environment's, whichever of its keys sends them (a key rotated mid-retry included).
    idempotencyScope: (principal) => `environment:${principal.projectId}:${principal.environment}`,
  };
}
