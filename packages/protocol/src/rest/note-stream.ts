/**
 * A note streamed as Server-Sent Events (`GET /api/v1/notes/{id}` with `Accept: text/event-stream`):
 * `status` whenever the note's status changes (the first event says where it stands), then, once it
 * is written, one `section` per template section in template order and `note` with the whole note
 * (as the JSON answer gives it); a note that failed ends with `note` carrying its error. Comments
 * (`: keep-alive`) keep proxies from closing a quiet stream. Zod-free names, for the client.
 */
export const NOTE_STREAM_EVENTS = ['status', 'section', 'note'] as const;
export type NoteStreamEventName = (typeof NOTE_STREAM_EVENTS)[number];

export const NOTE_STREAM_CONTENT_TYPE = 'text/event-stream';
