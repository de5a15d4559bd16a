import { endpoint } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import type { RealtimeSessionArchive } from '../../realtime/session-archive.js';
import { principalOf } from '../api-key-guard.js';
import { fastifyPath } from '../paths.js';

export function realtimeSessionRoutes(app: FastifyInstance, archive: RealtimeSessionArchive): void {
  app.get<{ Params: { id: string } }>(fastifyPath(endpoint('retrieveRealtimeSession')), async (request, reply) => {
    const session = await archive.retrieve(principalOf(request), request.params.id);
    // A transcript is PHI: no shared cache may keep it.
    return reply.header('cache-control', 'no-store').send(session);
  });

  const remove = endpoint('deleteRealtimeSession');
  app.delete<{ Params: { id: string } }>(fastifyPath(remove), async (request, reply) => {
    await archive.delete(principalOf(request), request.params.id);
    return reply.code(remove.success.status).send();
  });
}
