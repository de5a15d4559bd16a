import { route, type Area } from '../../http/route.js';
import type { WidgetSession } from '../../partners/widget-sessions.js';
import type { EncounterDocumentService } from './document-service.js';

/** An encounter's documents, behind the widget token: written, listed, edited, and linked as PDFs. */
export function documentRoutes(widget: Area<'widget_token', WidgetSession>, documents: EncounterDocumentService): void {
  route(widget, 'createWidgetDocument', ({ body, params, principal }) =>
    documents.create(principal, params.sessionId, body),
  );

  route(widget, 'listWidgetDocuments', async ({ params, principal }) => ({
    documents: await documents.list(principal, params.sessionId),
  }));

  route(widget, 'updateWidgetDocument', ({ body, params, principal }) =>
    documents.update(principal, params.sessionId, params.documentId, body),
  );

  route(widget, 'recordWidgetDocumentPush', async ({ body, params, principal }) => {
    await documents.recordPush(principal, params.sessionId, params.documentId, body.revision);
    return null;
  });

  route(widget, 'deleteWidgetDocument', async ({ params, principal }) => {
    await documents.delete(principal, params.sessionId, params.documentId);
    return null;
  });

  route(widget, 'createWidgetDocumentPdf', ({ params, principal }) =>
    documents.pdfLink(principal, params.sessionId, params.documentId),
  );
}

/**
 * The PDF behind PUSH_DOCUMENT's pdfUrl. The signed, expiring query is the only credential, so an
 * EMR's server can fetch it; it is never cached (the widget area's rule).
 */
export function documentLinkRoutes(open: Area<'none', null>, documents: EncounterDocumentService): void {
  route(open, 'downloadWidgetDocumentPdf', async ({ params, query, reply }) => {
    const { pdf, filename } = await documents.download(params.documentId, query);
    reply
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer');
    return pdf;
  });
}
