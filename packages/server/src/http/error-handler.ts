import type { FastifyError, FastifyInstance } from 'fastify';

import { AppError } from '../errors.js';
import { sendError } from './error-body.js';

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

/**
 * One error handler for the whole service: deliberate errors keep their code and message, the
 * rest become an opaque 500 whose details stay in the log under the request id.
 */
export function registerErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error, bodyLimit);
    if (known !== null) return sendError(reply, known);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, new AppError('internal_error', 'Something went wrong on our side.'));
  });
}
