import { endpoint } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import type { WidgetTokenSigner } from '../../partners/signer.js';
import { fastifyPath } from '../paths.js';

/** The public keys of widget tokens, so partners (and our own instances) can verify them. */
export function jwksRoute(app: FastifyInstance, signer: WidgetTokenSigner): void {
  app.get(fastifyPath(endpoint('widgetJwks')), (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(signer.jwks()),
  );
}
