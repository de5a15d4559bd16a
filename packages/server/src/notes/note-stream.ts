import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

import { NOTE_STREAM_CONTENT_TYPE, type NoteOrProgress, type NoteStreamEventName } from '@chartwright/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How often a streamed note is read again while it is queued or being written. */
const POLL_MS = 250;
/**
 * A comment at least this often while nothing else is sent: proxies and load balancers close
 * connections idle for a minute or so (HAProxy's `timeout server`), and a note can take longer.
 */
const KEEP_ALIVE_MS = 15_000;

/** Whether the caller asked for the note as Server-Sent Events. */
export function wantsNoteStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes(NOTE_STREAM_CONTENT_TYPE);
}

const event = (name: NoteStreamEventName, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The events of a note (protocol note-stream.ts): its status on each change, then its sections and
 * the note once written. The note is read from the database, so it streams the same whichever
 * process (this instance, another, a `chartwright worker`) writes it.
 */
async function* noteEvents(
  first: NoteOrProgress,
  load: () => Promise<NoteOrProgress>,
  signal: AbortSignal,
): AsyncGenerator<string> {
  let status: string | undefined;
  let quietSince = Date.now();
  for (let note = first; ; note = await load()) {
    if (note.status !== status) {
      status = note.status;
      quietSince = Date.now();
      yield event('status', { status });
    }
    if (note.status === 'ready') {
      for (const section of note.sections) yield event('section', section);
    }
    if (note.status === 'ready' || note.status === 'failed') {
      yield event('note', note);
      return;
    }
    if (Date.now() - quietSince >= KEEP_ALIVE_MS) {
      quietSince = Date.now();
      yield ': keep-alive\n\n';
    }
    await sleep(POLL_MS, undefined, { signal });
  }
}

/**
 * Answers with the note as Server-Sent Events, from `first` (already read), until it is written or fails. A caller that hangs up
 * stops the reads: the stream is destroyed, which ends the generator and its wait.
 */
export function sendNoteStream(
  reply: FastifyReply,
  first: NoteOrProgress,
  load: () => Promise<NoteOrProgress>,
): FastifyReply {
  const hangUp = new AbortController();
  const stream = Readable.from(noteEvents(first, load, hangUp.signal), { objectMode: false });
  stream.once('close', () => hangUp.abort());
  return reply
    .header('content-type', `${NOTE_STREAM_CONTENT_TYPE}; charset=utf-8`)
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    .send(stream);
}
