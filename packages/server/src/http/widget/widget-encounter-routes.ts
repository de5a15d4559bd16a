import {
  createWidgetDocumentRequestSchema,
  endpoint,
  generateWidgetNoteRequestSchema,
  recordConsentRequestSchema,
  updateWidgetDocumentRequestSchema,
  updateWidgetNoteRequestSchema,
  validate,
  type WidgetDocumentList,
  type WidgetNoteList,
} from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import type { EncounterDocumentService } from '../../encounters/documents/document-service.js';
import type { EncounterNoteService } from '../../encounters/encounter-notes.js';
import type { EncounterService } from '../../encounters/encounter-service.js';
import { AppError } from '../../errors.js';
import { bodyOf } from '../json-body.js';
import { fastifyPath } from '../paths.js';
import { widgetOf } from './widget-session-routes.js';

interface EncounterParams {
  Params: { sessionId: string };
}

/**
 * What the iframe does with an open encounter: consent, transcript, notes, documents and their PDF
 * links, and the whole state for a relaunch. Registered behind the widget token guard; every
 * service call checks the encounter belongs to the token's partner and clinician.
 */
export function widgetEncounterRoutes(
  app: FastifyInstance,
  services: { encounters: EncounterService; notes: EncounterNoteService; documents: EncounterDocumentService },
): void {
  const { encounters, notes, documents } = services;
  const owner = widgetOf;

  app.get<EncounterParams>(fastifyPath(endpoint('getWidgetEncounter')), (request) =>
    encounters.state(owner(request), request.params.sessionId),
  );

  app.post<EncounterParams>(fastifyPath(endpoint('recordWidgetConsent')), async (request) => {
    const parsed = validate(recordConsentRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    return encounters.recordConsent(owner(request), request.params.sessionId, parsed.value);
  });

  app.get<EncounterParams>(fastifyPath(endpoint('getWidgetTranscript')), (request) =>
    encounters.transcript(owner(request), request.params.sessionId),
  );

  const generate = endpoint('generateWidgetNote');
  app.post<EncounterParams>(fastifyPath(generate), async (request, reply) => {
    const parsed = validate(generateWidgetNoteRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    // A widget that goes away should not keep an LLM busy writing a note nobody will read.
    const abandoned = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abandoned.abort();
    });
    const note = await notes.generate(owner(request), request.params.sessionId, parsed.value, abandoned.signal);
    return reply.code(generate.success.status).send(note);
  });

  app.get<EncounterParams>(fastifyPath(endpoint('listWidgetNotes')), async (request): Promise<WidgetNoteList> => ({
    notes: await notes.list(owner(request), request.params.sessionId),
  }));

  app.put<{ Params: { sessionId: string; noteId: string } }>(
    fastifyPath(endpoint('updateWidgetNote')),
    async (request) => {
      const parsed = validate(updateWidgetNoteRequestSchema, bodyOf(request));
      if (!parsed.ok) throw AppError.invalidBody(parsed.details);
      return notes.update(owner(request), request.params.sessionId, request.params.noteId, parsed.value);
    },
  );

  const create = endpoint('createWidgetDocument');
  app.post<EncounterParams>(fastifyPath(create), async (request, reply) => {
    const parsed = validate(createWidgetDocumentRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    const document = await documents.create(widgetOf(request), request.params.sessionId, parsed.value);
    return reply.code(create.success.status).send(document);
  });

  app.get<EncounterParams>(
    fastifyPath(endpoint('listWidgetDocuments')),
    async (request): Promise<WidgetDocumentList> => ({
      documents: await documents.list(owner(request), request.params.sessionId),
    }),
  );

  app.put<{ Params: { sessionId: string; documentId: string } }>(
    fastifyPath(endpoint('updateWidgetDocument')),
    async (request) => {
      const parsed = validate(updateWidgetDocumentRequestSchema, bodyOf(request));
      if (!parsed.ok) throw AppError.invalidBody(parsed.details);
      return documents.update(owner(request), request.params.sessionId, request.params.documentId, parsed.value);
    },
  );

  app.post<{ Params: { sessionId: string; documentId: string } }>(
    fastifyPath(endpoint('createWidgetDocumentPdf')),
    async (request, reply) => {
      const link = await documents.pdfLink(owner(request), request.params.sessionId, request.params.documentId);
      return reply.header('cache-control', 'no-store').send(link);
    },
  );
}
