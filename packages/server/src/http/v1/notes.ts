import { createNoteRequestSchema, endpoint, validate } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import { AppError } from '../../errors.js';
import type { NoteService } from '../../notes/note-service.js';
import { principalOf } from '../api-key-guard.js';
import { bodyOf } from '../json-body.js';
import { fastifyPath } from '../paths.js';

export function notesRoutes(app: FastifyInstance, notes: NoteService): void {
  const create = endpoint('createNote');
  app.post(fastifyPath(create), async (request, reply) => {
    const parsed = validate(createNoteRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    // A caller that hangs up should not keep an LLM busy writing a note nobody will read.
    const abandoned = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abandoned.abort();
    });
    const principal = principalOf(request);
    const note = await notes.create(principal, parsed.value, abandoned.signal);
    return reply.code(create.success.status).send(note);
  });

  app.get<{ Params: { id: string } }>(fastifyPath(endpoint('retrieveNote')), (request) =>
    notes.retrieve(principalOf(request), request.params.id),
  );
}
