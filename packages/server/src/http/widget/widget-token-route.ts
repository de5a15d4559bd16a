import { endpoint, validate, widgetTokenRequestSchema, type WidgetTokenResponse } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../ratelimit/rate-limiter.js';
import type { PartnerService } from '../../widget/partners.js';
import type { WidgetTokenService } from '../../widget/widget-tokens.js';
import { fastifyPath } from '../paths.js';

export interface WidgetTokenRouteOptions {
  partners: PartnerService;
  tokens: WidgetTokenService;
  rateLimiter: RateLimiter;
  limitPerMinute: number;
}

/**
 * POST /api/widget/token, for partner backends. The per-IP limit is counted before anything else,
 * so guessing partner keys is throttled too; the client IP honours TRUST_PROXY.
 */
export function widgetTokenRoute(app: FastifyInstance, options: WidgetTokenRouteOptions): void {
  app.post(fastifyPath(endpoint('createWidgetToken')), async (request, reply) => {
    const decision = await options.rateLimiter.hit(`widget-token:${request.ip}`, options.limitPerMinute, 60_000);
    reply.headers({
      'ratelimit-limit': String(decision.limit),
      'ratelimit-remaining': String(decision.remaining),
      'ratelimit-reset': String(decision.resetSeconds),
    });
    if (!decision.allowed) {
      throw new AppError('rate_limited', `At most ${decision.limit} token requests per minute from one address.`, {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      });
    }
    const partner = await options.partners.authenticate(request.headers['x-partner-key'] as string | undefined);
    const parsed = validate(widgetTokenRequestSchema, request.body === undefined ? {} : request.body);
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    const minted = await options.tokens.mint(partner, parsed.value);
    const body: WidgetTokenResponse = { success: true, data: minted };
    return reply.header('cache-control', 'no-store').send(body);
  });
}
