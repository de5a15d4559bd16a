/**
 * GET /api/v1/realtime: the realtime transcription WebSocket. The credential is checked in an
 * onRequest hook, before the upgrade completes: a refused credential gets an ordinary HTTP error
 * response (401/403 with the error body), never an accepted socket.
 */
import websocket from '@fastify/websocket';
import { REALTIME_AUTH_SUBPROTOCOL_PREFIX, REALTIME_SUBPROTOCOL } from '@chartwright/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { credentialFromAuthorization, type Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import { refuseBody } from '../http/json-body.js';
import type { RealtimeService } from './service.js';

export const REALTIME_PATH = '/api/v1/realtime';

/** Frames over this many times maxFrameBytes are not even buffered: the socket closes with 1009. */
export const HARD_FRAME_FACTOR = 4;

const CREDENTIAL = 'API key or realtime token';

/** The credential from `Authorization: Bearer`, or from an `auth.<credential>` subprotocol entry. Never from the URL. */
export function realtimeCredential(request: FastifyRequest): string {
  if (request.headers.authorization !== undefined) {
    return credentialFromAuthorization(request.headers.authorization, CREDENTIAL);
  }
  const offered = (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const carried = offered.filter((entry) => entry.startsWith(REALTIME_AUTH_SUBPROTOCOL_PREFIX));
  if (carried.length > 1) {
    throw new AppError('malformed_authorization', 'Offer exactly one auth.<credential> subprotocol.');
  }
  const [entry] = carried;
  if (entry !== undefined) {
    if (!offered.includes(REALTIME_SUBPROTOCOL)) {
      throw new AppError(
        'malformed_authorization',
        `Offer the ${REALTIME_SUBPROTOCOL} subprotocol beside auth.<credential>.`,
      );
    }
    return entry.slice(REALTIME_AUTH_SUBPROTOCOL_PREFIX.length);
  }
  const inQuery = request.url.includes('?');
  throw new AppError(
    'missing_authorization',
    (inQuery ? 'Credentials are never read from the URL. ' : '') +
      `Send your ${CREDENTIAL} as "Authorization: Bearer <credential>", or offer the subprotocols ` +
      `${REALTIME_SUBPROTOCOL} and auth.<credential>.`,
  );
}

export async function registerRealtimeRoute(
  app: FastifyInstance,
  options: { authenticator: Authenticator; service: RealtimeService; maxFrameBytes: number },
): Promise<void> {
  // Before the plugin's own preClose, which closes sockets without a word.
  app.addHook('preClose', (done) => {
    options.service.shutdown();
    done();
  });
  // The sockets' last segments are stored before the database closes.
  app.addHook('onClose', async () => {
    await options.service.drain();
  });
  await app.register(websocket, {
    options: {
      maxPayload: options.maxFrameBytes * HARD_FRAME_FACTOR,
      // Select our subprotocol; never echo the auth.<credential> entry.
      handleProtocols: (protocols) => (protocols.has(REALTIME_SUBPROTOCOL) ? REALTIME_SUBPROTOCOL : false),
    },
  });

  const principals = new WeakMap<FastifyRequest, { principal: Principal; credential: string }>();
  app.route({
    method: 'GET',
    url: REALTIME_PATH,
    onRequest: async (request) => {
      const credential = realtimeCredential(request);
      principals.set(request, { principal: await options.authenticator.authenticate(credential), credential });
    },
    preParsing: refuseBody,
    handler: () => {
      throw new AppError(
        'bad_request',
        'This is the realtime WebSocket: connect with a WebSocket client (Upgrade: websocket).',
      );
    },
    wsHandler: (socket, request) => {
      const authenticated = principals.get(request);
      if (authenticated === undefined) {
        socket.close(1011, 'internal_error');
        return;
      }
      // The session re-checks its credential while it runs, so a revoked key closes its sockets too.
      options.service.accept(
        socket,
        authenticated.principal,
        async () => {
          await options.authenticator.authenticate(authenticated.credential);
        },
        { ip: request.ip, requestId: request.id },
      );
    },
  });
}
