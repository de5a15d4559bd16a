import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

import { AppError } from '../errors.js';
import { errorBody, widgetErrorEnvelope } from './error-body.js';

const MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'The path is not valid percent-encoding.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment is longer than the service reads (100 characters).',
};

/**
 * Answers what Fastify refuses before it chooses a route (a path that does not decode, a path
 * parameter over 100 characters) with a 400 `bad_request` in the service's error body rather than
 * Fastify's own. No context is chosen yet, so the widget API's envelope goes by its path prefix.
 */
export function frameworkErrors(widgetApiPrefix: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const problem = new AppError('bad_request', MESSAGES[error.code] ?? 'The request is malformed.');
    const envelope = request.url.startsWith(widgetApiPrefix) ? widgetErrorEnvelope : errorBody;
    void reply
      .code(problem.status)
      .header('x-request-id', request.id)
      .type('application/json; charset=utf-8')
      .send(envelope(problem, request.id));
  };
}
