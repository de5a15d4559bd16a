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

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Deletes notes past their retention hourly while the service runs (and once at start). */
export function registerNoteRetention(app: FastifyInstance, notes: NoteService): void {
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => {
    notes.deleteExpired().then(
      (deleted) => {
        if (deleted > 0) app.log.info({ deleted }, 'deleted notes past their retention');
      },
      (error: unknown) => app.log.warn({ err: error }, 'note retention sweep failed'),
    );
  };
  app.addHook('onReady', (done) => {
    sweep();
    timer = setInterval(sweep, SWEEP_INTERVAL_MS);
    timer.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}
