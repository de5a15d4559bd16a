import type { FastifyInstance } from 'fastify';

import { AppError } from '../errors.js';

/** How an instance leaves a load balancer before it closes (see registerDraining). */
export interface Draining {
  /** Stop being ready: /readyz answers 503 from now on, while every other request is still served. */
  leave(): void;
  /** True once leave() was called or the app started closing. */
  readonly leaving: boolean;
}

/** What a request gets once the instance stops taking traffic: a 503 the caller may retry elsewhere. */
export function shuttingDown(): AppError {
  return new AppError('service_unavailable', 'The service is shutting down; retry on another instance.');
}

/**
 * Two steps out. Leaving (SIGTERM, for the drain delay): readiness fails so the balancer's health
 * checks take the instance out of rotation, but requests that still arrive — the balancer keeps
 * sending them until its checks notice — are served in full; each response closes its connection,
 * so no pooled connection of the balancer is left open for the listener's close to cut.
 *
 * Closing: keep-alive connections are told to close after their current response (Fastify's close
 * only reaps connections that are idle at that instant, so a connection serving an in-flight request
 * would otherwise hold shutdown open), and requests that still arrive get our 503 error body rather
 * than Fastify's own. Hooks use callbacks, not promises: they run on every request.
 */
export function registerDraining(app: FastifyInstance): void {
  let phase: 'serving' | 'leaving' | 'closing' = 'serving';
  const draining: Draining = {
    leave: () => {
      if (phase === 'serving') phase = 'leaving';
    },
    get leaving() {
      return phase !== 'serving';
    },
  };
  app.decorate('draining', draining);
  app.addHook('preClose', (done) => {
    phase = 'closing';
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (phase !== 'closing') {
      done();
      return;
    }
    reply.header('connection', 'close');
    done(shuttingDown());
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (phase !== 'serving') reply.header('connection', 'close');
    done(null, payload);
  });
}
