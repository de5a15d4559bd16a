import { createHash } from 'node:crypto';

import type { ApiKeyPrincipal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import { abandonedSignal } from '../http/abandoned.js';
import { route, type Area } from '../http/route.js';
import type { Deletion } from '../retention/deletion.js';
import type { AsyncNotes } from './async-notes.js';
import type { NoteService } from './note-service.js';
import { sendNoteStream, wantsNoteStream } from './note-stream.js';
import { CURATED_TEMPLATES_JSON } from './templates.js';

// Clients that keep the list can revalidate it with If-None-Match and get a 304 without the body.
const ETAG = `"${createHash('sha256').update(CURATED_TEMPLATES_JSON).digest('base64url').slice(0, 22)}"`;

export function notesRoutes(
  api: Area<'api_key', ApiKeyPrincipal>,
  services: { notes: NoteService; asyncNotes: AsyncNotes; deletion: Deletion },
): void {
  const { notes, asyncNotes, deletion } = services;
  route(api, 'listTemplates', ({ request, reply }) => {
    reply.header('etag', ETAG).header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] === ETAG) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(CURATED_TEMPLATES_JSON);
  });

  route(api, 'createNote', async ({ body, principal, reply }) => {
    if (body.async !== true) return notes.create(principal, body, abandonedSignal(reply));
    const queued = await asyncNotes.submit(principal, body);
    reply.code(202).header('location', `/api/v1/notes/${queued.id}`);
    return queued;
  });

  route(api, 'retrieveNote', async ({ params, query, principal, request, reply }) => {
    const load = () => notes.retrieve(principal, params.id, query.include);
    if (!wantsNoteStream(request)) return load();
    // Read once before streaming, so a missing note gets its 404 rather than an empty stream.
    return sendNoteStream(reply, await load(), load);
  });

  route(api, 'deleteNote', async ({ params, principal }) => {
    if (!(await deletion.note(params.id, principal))) {
      throw new AppError('note_not_found', `No note ${params.id} exists for this key's project environment.`);
    }
    return null;
  });
}
