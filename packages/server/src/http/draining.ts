import type { FastifyInstance } from 'fastify';

import { AppError } from '../errors.js';

/**
 * Once the service starts closing, keep-alive connections are told to close after their current
 * response (Fastify's close only reaps connections that are idle at that instant, so a connection
 * serving an in-flight request would otherwise hold shutdown open), and requests that still arrive
 * get our 503 error body rather than Fastify's own. Hooks use callbacks, not promises: they run on
 * every request.
 */
export function registerDraining(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!draining) {
      done();
      return;
    }
    reply.header('connection', 'close');
    done(new AppError('service_unavailable', 'The service is shutting down; retry on another instance.'));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
}
