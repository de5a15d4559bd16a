import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

import type { ErrorCode } from '@chartwright/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import { generateId } from '../auth/secrets.js';
import { AppError } from '../errors.js';
import { errorBody } from './error-body.js';

/** Node's parser errors that have a status of their own; any other is a malformed request (400). */
const CLIENT_ERRORS: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message:
      'The request did not arrive in time (headers within HEADERS_TIMEOUT_MS, all of it within REQUEST_TIMEOUT_MS).',
  },
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    message: 'The request headers are larger than this service accepts.',
  },
};

const MALFORMED = { code: 'bad_request', message: 'The request is malformed.' } as const;

/**
 * Sockets whose request was answered before its body had all arrived (a 401 is sent before the
 * body is read): a timeout of that body ends the connection without another response.
 */
const answeredEarly = new WeakSet<Socket>();

/** Notes every request answered before its body was complete, for the client error handler. */
export function watchEarlyAnswers(app: FastifyInstance): void {
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.raw.complete) answeredEarly.add(request.raw.socket);
    done();
  });
}

/**
 * Answers what Node's HTTP server rejects before any route sees it (a malformed request, headers
 * too large, a request that trickles in too slowly) with the service's error body, then closes the
 * connection: the stream can no longer be trusted to be at a request boundary.
 */
export function clientErrorHandler(logger: FastifyBaseLogger): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    // A reset or closed socket has no one left to answer; a request already answered must not get
    // a second response.
    if (error.code === 'ECONNRESET' || !socket.writable || answeredEarly.has(socket)) {
      socket.destroy();
      return;
    }
    const { code, message } = (error.code === undefined ? undefined : CLIENT_ERRORS[error.code]) ?? MALFORMED;
    const problem = new AppError(code, message);
    const requestId = generateId('req');
    const body = JSON.stringify(errorBody(problem, requestId));
    logger.info({ requestId, status: problem.status, reason: error.code }, 'client error');
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'connection: close\r\n\r\n' +
        body,
    );
    // Closes once the answer is written.
    socket.destroySoon();
  };
}
