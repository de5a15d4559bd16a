import { endpoint } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import type { EncounterDocumentService } from '../../encounters/documents/document-service.js';
import { fastifyPath } from '../paths.js';

/**
 * GET /api/widget/documents/{documentId}/pdf: the PDF behind PUSH_DOCUMENT's pdfUrl. The signed,
 * expiring query is the only credential, so an EMR's server can fetch it; it is never cached.
 */
export function widgetPdfRoute(app: FastifyInstance, documents: EncounterDocumentService): void {
  app.get<{ Params: { documentId: string }; Querystring: Record<string, unknown> }>(
    fastifyPath(endpoint('downloadWidgetDocumentPdf')),
    async (request, reply) => {
      const { pdf, filename } = await documents.download(request.params.documentId, request.query);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .type('application/pdf')
        .send(pdf);
    },
  );
}
