import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';

import { AppError } from '../errors.js';
import type { ErrorEnvelope } from './error-body.js';

/** Fastify's own request errors that we answer deliberately; everything else is a 500. */
function fromFastifyError(error: FastifyError, bodyLimit: number): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('request_too_large', `The body is larger than this route accepts (${bodyLimit} bytes).`);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_json', 'The body is not valid JSON.');
    default:
      // Other 4xx from Fastify describe the HTTP request itself (bad Content-Length, aborted body…).
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return new AppError('bad_request', 'The request is malformed.');
      }
      return null;
  }
}

function sendError(reply: FastifyReply, error: AppError, envelope: ErrorEnvelope): FastifyReply {
  return reply
    .code(error.status)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(envelope(error, reply.request.id));
}

/**
 * Answers every error of this context, and every request under its prefix that no route takes (404,
 * or 405 with Allow), in `envelope`. Deliberate errors keep their code and message; the rest become an
 * opaque 500 whose details stay in the log under the request id. Contexts registered inside inherit
 * both, so each part of the service words its errors one way without looking at URLs.
 */
export function answerErrorsWith(app: FastifyInstance, envelope: ErrorEnvelope): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error, request.routeOptions.bodyLimit);
    if (known !== null) return sendError(reply, known, envelope);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, new AppError('internal_error', 'Something went wrong on our side.'), envelope);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, app.routeMiss(request), envelope));
}
