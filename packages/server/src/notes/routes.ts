import { createHash } from 'node:crypto';

import { endpoint } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import { CURATED_TEMPLATES_JSON } from '../../notes/templates.js';
import { fastifyPath } from '../paths.js';

// Clients that keep the list can revalidate it with If-None-Match and get a 304 without the body.
const ETAG = `"${createHash('sha256').update(CURATED_TEMPLATES_JSON).digest('base64url').slice(0, 22)}"`;

export function templatesRoutes(app: FastifyInstance): void {
  app.get(fastifyPath(endpoint('listTemplates')), (request, reply) => {
    reply.header('etag', ETAG).header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] === ETAG) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(CURATED_TEMPLATES_JSON);
  });
}
