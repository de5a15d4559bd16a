import { createRealtimeTokenRequestSchema, endpoint, validate } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import type { RealtimeTokenService } from '../../auth/realtime-tokens.js';
import { AppError } from '../../errors.js';
import { principalOf } from '../api-key-guard.js';
import { bodyOf } from '../json-body.js';
import { fastifyPath } from '../paths.js';

export function realtimeTokenRoutes(app: FastifyInstance, service: RealtimeTokenService): void {
  const spec = endpoint('createRealtimeToken');
  app.post(fastifyPath(spec), async (request, reply) => {
    const parsed = validate(createRealtimeTokenRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    const principal = principalOf(request);
    const token = await service.mint({
      projectId: principal.projectId,
      environment: principal.environment,
      issuer: { kind: 'api_key', id: principal.apiKeyId },
      ...(parsed.value.expiresInSeconds === undefined ? {} : { expiresInSeconds: parsed.value.expiresInSeconds }),
    });
    return reply.code(spec.success.status).header('cache-control', 'no-store').send(token);
  });
}
