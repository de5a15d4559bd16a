import type { FastifyInstance, FastifyRequest } from 'fastify';

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
