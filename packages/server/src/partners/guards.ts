import { credentialFromAuthorization } from '../auth/authenticator.js';
import { enforceRateLimit, failuresFromAddress, MINUTE_MS, throttleFailures } from '../http/rate-limit.js';
import type { Guard } from '../http/route.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { PartnerRow } from '../store/partners.js';
import type { PartnerService } from './partner-service.js';
import type { WidgetSession, WidgetSessionService } from './widget-sessions.js';

/**
 * Guards the routes partner backends call with `X-Partner-Key`. Failed attempts are throttled per
 * client IP before the key is checked (the client IP honours TRUST_PROXY), so guessing keys costs the
 * guesser; a partner's own requests are limited per partner, whatever address they come from, and
 * count whatever their body. A bad key is a 401 whatever the body.
 */
export function partnerKeyGuard(options: {
  partners: PartnerService;
  rateLimiter: RateLimiter;
  failuresPerMinute: number;
  tokensPerPartnerPerMinute: number;
}): Guard<'partner_key', PartnerRow> {
  const { rateLimiter } = options;
  return {
    auth: 'partner_key',
    authenticate: async (request, reply) => {
      const failures = failuresFromAddress(
        'widget_token_failures_address',
        `widget-token-failures:${request.ip}`,
        options.failuresPerMinute,
      );
      const partner = await throttleFailures(reply, rateLimiter, failures, () =>
        options.partners.authenticate(request.headers['x-partner-key'] as string | undefined),
      );
      const decision = await rateLimiter.hit(
        `widget-token:partner:${partner.id}`,
        options.tokensPerPartnerPerMinute,
        MINUTE_MS,
      );
      enforceRateLimit(
        reply,
        decision,
        'widget_token_partner',
        `At most ${decision.limit} token requests per minute for one partner.`,
      );
      return partner;
    },
  };
}

/**
 * Guards the iframe's API: its widget token as `Authorization: Bearer <JWT>` opens its widget
 * session. Failed attempts are throttled per client IP; a session's calls are limited per clinician
 * and per partner, so one clinician (or one partner's widgets together) cannot crowd out the rest.
 */
export function widgetTokenGuard(options: {
  widgetSessions: WidgetSessionService;
  rateLimiter: RateLimiter;
  failuresPerMinute: number;
  perClinicianPerMinute: number;
  perPartnerPerMinute: number;
}): Guard<'widget_token', WidgetSession> {
  const { rateLimiter } = options;
  return {
    auth: 'widget_token',
    authenticate: async (request, reply) => {
      const failures = failuresFromAddress(
        'widget_api_failures_address',
        `widget-api-failures:${request.ip}`,
        options.failuresPerMinute,
      );
      const session = await throttleFailures(reply, rateLimiter, failures, () =>
        options.widgetSessions.authenticate(credentialFromAuthorization(request.headers.authorization, 'widget token')),
      );
      const [clinician, partner] = await Promise.all([
        rateLimiter.hit(`widget-api:clinician:${session.clinician.id}`, options.perClinicianPerMinute, MINUTE_MS),
        rateLimiter.hit(`widget-api:partner:${session.partner.id}`, options.perPartnerPerMinute, MINUTE_MS),
      ]);
      // The headers speak of the limit that binds: the one refusing, else the one with less left.
      if (!partner.allowed || (clinician.allowed && partner.remaining < clinician.remaining)) {
        enforceRateLimit(
          reply,
          partner,
          'widget_api_partner',
          `At most ${partner.limit} widget requests per minute for one partner.`,
        );
      } else {
        enforceRateLimit(
          reply,
          clinician,
          'widget_api_clinician',
          `At most ${clinician.limit} widget requests per minute for one clinician.`,
        );
      }
      return session;
    },
    // A clinician's keys are their own, whichever of their widget tokens sends them.
    idempotencyScope: (session) => `clinician:${session.clinician.id}`,
  };
}
