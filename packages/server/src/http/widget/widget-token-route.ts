import { endpoint, validate, widgetTokenRequestSchema, type WidgetTokenResponse } from '@chartwright/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../ratelimit/rate-limiter.js';
import type { PartnerRow } from '../../store/partners.js';
import type { PartnerService } from '../../partners/partner-service.js';
import type { WidgetTokenService } from '../../partners/widget-tokens.js';
import { bodyOf } from '../json-body.js';
import { fastifyPath } from '../paths.js';
import { enforceRateLimit } from '../rate-limit.js';

export interface WidgetTokenRouteOptions {
  partners: PartnerService;
  tokens: WidgetTokenService;
  rateLimiter: RateLimiter;
  limitPerMinute: number;
}

/**
 * POST /api/widget/token, for partner backends. The per-IP limit is counted before anything else,
 * so guessing partner keys is throttled too; the client IP honours TRUST_PROXY. Both it and the
 * partner key are checked on request, before the body is read, so a bad key is a 401 whatever the
 * body and every request counts against the limit, unreadable bodies included.
 */
export function widgetTokenRoute(app: FastifyInstance, options: WidgetTokenRouteOptions): void {
  const partnerOf = new WeakMap<FastifyRequest, PartnerRow>();
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    const decision = await options.rateLimiter.hit(`widget-token:${request.ip}`, options.limitPerMinute, 60_000);
    enforceRateLimit(reply, decision, `At most ${decision.limit} token requests per minute from one address.`);
    partnerOf.set(request, await options.partners.authenticate(request.headers['x-partner-key'] as string | undefined));
  };
  app.post(fastifyPath(endpoint('createWidgetToken')), { onRequest }, async (request, reply) => {
    const partner = partnerOf.get(request);
    if (partner === undefined) throw new Error('the partner key was not checked on request');
    const parsed = validate(widgetTokenRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    const minted = await options.tokens.mint(partner, parsed.value);
    const body: WidgetTokenResponse = { success: true, data: minted };
    return reply.header('cache-control', 'no-store').send(body);
  });
}
