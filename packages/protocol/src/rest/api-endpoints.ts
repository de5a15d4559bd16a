import { z } from 'zod';

import { BODY_ERRORS, NOTE_GENERATION_ERRORS, type EndpointSpec } from './endpoint-spec.js';
import {
  createNoteRequestSchema,
  noteOrProgressSchema,
  noteProgressSchema,
  noteSchema,
  noteStreamSchema,
  retrieveNoteQuerySchema,
} from './notes.js';
import { NOTE_STREAM_CONTENT_TYPE } from './note-stream.js';
import { realtimeSessionSchema } from './realtime-sessions.js';
import { createRealtimeTokenRequestSchema, realtimeTokenSchema } from './realtime-tokens.js';
import { templateListSchema } from './templates.js';

/** The REST API under /api/v1 that servers call with their sk_ keys, and the realtime WebSocket. */
export const API_ENDPOINTS = [
  {
    method: 'GET',
    path: '/api/v1/templates',
    operationId: 'listTemplates',
    summary: 'List the note templates',
    tag: 'Templates',
    auth: 'api_key',
    success: { status: 200, description: 'Every template, curated ones first.', schema: templateListSchema },
    errors: [],
    otherResponses: [
      { status: 304, description: 'Not Modified: the list is still the one whose ETag was sent in If-None-Match.' },
    ],
  },
  {
    method: 'POST',
    path: '/api/v1/notes',
    operationId: 'createNote',
    summary: 'Generate a clinical note from a conversation for a template',
    tag: 'Notes',
    auth: 'api_key',
    idempotent: true,
    requestBody: { schema: createNoteRequestSchema, required: true },
    success: { status: 201, description: 'The note, stored until its expires_at.', schema: noteSchema },
    accepted: {
      description: 'With `async: true`: the note, `queued`; Location is where it is read (GET /api/v1/notes/{id}).',
      schema: noteProgressSchema,
    },
    errors: [
      ...BODY_ERRORS,
      'template_not_found',
      'conversation_too_long',
      'webhook_url_refused',
      'callback_secret_missing',
      ...NOTE_GENERATION_ERRORS,
    ],
  },
  {
    method: 'GET',
    path: '/api/v1/notes/{id}',
    operationId: 'retrieveNote',
    summary: 'Retrieve a note made by this project environment',
    tag: 'Notes',
    auth: 'api_key',
    query: { schema: retrieveNoteQuerySchema },
    success: {
      status: 200,
      description:
        'The stored note; an asynchronous one as it stands (`queued`, `generating`, `failed`) until it is `ready`.',
      schema: noteOrProgressSchema,
    },
    errors: ['invalid_query', 'note_not_found'],
    otherResponses: [
      {
        status: 200,
        description:
          'With `Accept: text/event-stream`: the note streamed as it progresses until it is written or fails.',
        body: { schema: noteStreamSchema, contentType: NOTE_STREAM_CONTENT_TYPE },
      },
    ],
  },
  {
    method: 'DELETE',
    path: '/api/v1/notes/{id}',
    operationId: 'deleteNote',
    summary: 'Delete a note now, before its retention ends (a note made for the wrong patient)',
    tag: 'Notes',
    auth: 'api_key',
    success: { status: 204, description: 'Deleted, with every copy; it can no longer be retrieved.', schema: z.null() },
    errors: ['note_not_found'],
  },
  {
    method: 'POST',
    path: '/api/v1/realtime/tokens',
    operationId: 'createRealtimeToken',
    summary: 'Mint a temporary realtime token (sk_ keys only)',
    tag: 'Realtime',
    auth: 'api_key',
    idempotent: true,
    requestBody: { schema: createRealtimeTokenRequestSchema, required: false },
    success: { status: 201, description: 'The token, shown once.', schema: realtimeTokenSchema },
    errors: BODY_ERRORS,
  },
  {
    method: 'GET',
    path: '/api/v1/realtime/sessions/{id}',
    operationId: 'retrieveRealtimeSession',
    summary: 'Retrieve a realtime session of this project environment and its stored transcript',
    tag: 'Realtime',
    auth: 'api_key',
    success: { status: 200, description: 'The session and every stored segment.', schema: realtimeSessionSchema },
    errors: ['realtime_session_not_found'],
  },
  {
    method: 'DELETE',
    path: '/api/v1/realtime/sessions/{id}',
    operationId: 'deleteRealtimeSession',
    summary: 'Delete a realtime session and its transcript now, before its retention ends',
    tag: 'Realtime',
    auth: 'api_key',
    success: { status: 204, description: 'Deleted; it can no longer be retrieved or resumed.', schema: z.null() },
    errors: ['realtime_session_not_found', 'realtime_session_active'],
  },
  {
    method: 'GET',
    path: '/api/v1/realtime',
    operationId: 'openRealtimeSession',
    summary: 'Open the realtime transcription WebSocket (sk_ key or svc_rt_ token; see docs/realtime.md)',
    tag: 'Realtime',
    auth: 'realtime',
    success: {
      status: 101,
      description:
        'Switching Protocols: the socket carries the messages of `@chartwright/protocol` realtime (docs/realtime.md).',
      schema: z.null(),
    },
    errors: ['bad_request'],
  },
] as const satisfies readonly EndpointSpec[];
