import { credentialFromAuthorization } from '../auth/authenticator.js';
import { enforceRateLimit } from '../http/rate-limit.js';
import type { Guard } from '../http/route.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { PartnerRow } from '../store/partners.js';
import type { PartnerService } from './partner-service.js';
import type { WidgetSession, WidgetSessionService } from './widget-sessions.js';

/**
 * Guards the routes partner backends call with `X-Partner-Key`. The per-IP limit is counted first,
 * so guessing partner keys is throttled too (the client IP honours TRUST_PROXY); a bad key is a 401
 * whatever the body, and every request counts against the limit, unreadable bodies included.
 */
export function partnerKeyGuard(options: {
  partners: PartnerService;
  rateLimiter: RateLimiter;
  limitPerMinute: number;
}): Guard<'partner_key', PartnerRow> {
  return {
    auth: 'partner_key',
    authenticate: async (request, reply) => {
      const decision = await options.rateLimiter.hit(`widget-token:${request.ip}`, options.limitPerMinute, 60_000);
      enforceRateLimit(reply, decision, `At most ${decision.limit} token requests per minute from one address.`);
      return options.partners.authenticate(request.headers['x-partner-key'] as string | undefined);
    },
  };
}

/** Guards the iframe's API: its widget token as `Authorization: Bearer <JWT>` opens its widget session. */
export function widgetTokenGuard(widgetSessions: WidgetSessionService): Guard<'widget_token', WidgetSession> {
  return {
    auth: 'widget_token',
    authenticate: (request) =>
      widgetSessions.authenticate(credentialFromAuthorization(request.headers.authorization, 'widget token')),
  };
}
