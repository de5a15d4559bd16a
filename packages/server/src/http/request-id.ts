import type { IncomingMessage } from 'node:http';

import type { FastifyInstance } from 'fastify';

import { generateId } from '../auth/secrets.js';

// A caller-supplied id is kept only when it cannot smuggle anything into logs or headers.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Keeps a well-formed incoming `x-request-id` (so ids follow a request through proxies), else mints one. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming)) return incoming;
  return generateId('req');
}

/** Every response names its request, errors and unknown routes included, so a caller can quote it. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
