import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';

import { AppError } from '../errors.js';

/** The parsed body, with no body at all read as `{}` so optional fields take their defaults. */
export const bodyOf = (request: FastifyRequest): unknown => (request.body === undefined ? {} : request.body);

/**
 * JSON is the only body type the API takes: anything else is a 415. An empty JSON body counts as
 * no body, so `POST` with `Content-Type: application/json` and nothing else uses the defaults.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}

/**
 * A `preParsing` hook for an operation that takes no body: one sent anyway is refused before it is
 * read, rather than accepted and ignored, since the OpenAPI document declares none. An empty body
 * (`Content-Length: 0`) is no body.
 */
export const refuseBody: preParsingHookHandler = (request, _reply, payload, done) => {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0)) {
    const path = request.url.split('?')[0] ?? '';
    done(new AppError('body_not_allowed', `${request.method} ${path} takes no body; send the request without one.`));
    return;
  }
  // A callback hook, as the service's own are: cheaper than a promise on every request.
  done(null, payload);
};
