import type { FastifyInstance } from 'fastify';

/**
 * Every response of the context, errors included, tells browsers and shared caches to keep no copy
 * (`Cache-Control: no-store`): these routes answer with patient data (notes, transcripts, encounters,
 * documents, PDFs) or the credentials that reach it. A route that chose its own policy for a
 * response that holds neither (the template list's revalidation) keeps it.
 */
export function noStoreResponses(app: FastifyInstance): void {
  // A callback hook: an async one costs a promise on every response.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
