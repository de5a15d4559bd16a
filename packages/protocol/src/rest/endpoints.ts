import { z } from 'zod';

import type { ErrorCode } from '../errors.js';
import { healthSchema } from './health.js';
import { createNoteRequestSchema, noteSchema } from './notes.js';
import { realtimeSessionSchema } from './realtime-sessions.js';
import { createRealtimeTokenRequestSchema, realtimeTokenSchema } from './realtime-tokens.js';
import { templateListSchema } from './templates.js';
import {
  patientContextResultSchema,
  setPatientContextRequestSchema,
  widgetEncounterSchema,
  widgetRealtimeTokenRequestSchema,
  widgetSessionInfoSchema,
  widgetTokenRequestSchema,
  widgetTokenResponseSchema,
} from './widget-api.js';
import {
  createWidgetDocumentRequestSchema,
  generateWidgetNoteRequestSchema,
  recordConsentRequestSchema,
  updateWidgetDocumentRequestSchema,
  updateWidgetNoteRequestSchema,
  widgetConsentSchema,
  widgetDocumentListSchema,
  widgetDocumentPdfSchema,
  widgetDocumentSchema,
  widgetEncounterStateSchema,
  widgetNoteListSchema,
  widgetNoteSchema,
  widgetTranscriptSchema,
} from './widget-encounter-api.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointSpec {
  readonly method: HttpMethod;
  /** OpenAPI path syntax: `/api/v1/notes/{id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: 'Templates' | 'Notes' | 'Realtime' | 'Widget' | 'Operations';
  /**
   * `api_key`: Authorization: Bearer sk_…; `partner_key`: X-Partner-Key; `widget_token`:
   * Authorization: Bearer <widget JWT>; `realtime`: an sk_ key or a temporary svc_rt_ token, in
   * Authorization: Bearer or as a `Sec-WebSocket-Protocol` entry `auth.<credential>`; `none`: public.
   */
  readonly auth: 'api_key' | 'partner_key' | 'widget_token' | 'realtime' | 'none';
  readonly requestBody?: { readonly schema: z.ZodType; readonly required: boolean };
  readonly success: {
    readonly status: number;
    readonly description: string;
    readonly schema: z.ZodType;
    /** Default application/json. */
    readonly contentType?: string;
  };
  /** Error codes this route can answer with beyond the ones every authenticated route shares. */
  readonly errors: readonly ErrorCode[];
}

/** Errors any authenticated route may return. */
export const AUTHENTICATED_ROUTE_ERRORS: readonly ErrorCode[] = [
  'missing_authorization',
  'malformed_authorization',
  'invalid_api_key',
  'api_key_revoked',
  'api_key_expired',
  'realtime_token_expired',
  'temporary_token_not_allowed',
  'rate_limited',
  'internal_error',
];

/** Errors the realtime WebSocket's upgrade may be refused with (before any socket is accepted). */
export const REALTIME_ROUTE_ERRORS: readonly ErrorCode[] = [
  'missing_authorization',
  'malformed_authorization',
  'invalid_api_key',
  'api_key_revoked',
  'api_key_expired',
  'realtime_token_expired',
  'partner_revoked',
  'internal_error',
];

/** Errors any route behind a partner key may return. */
export const PARTNER_ROUTE_ERRORS: readonly ErrorCode[] = [
  'missing_partner_key',
  'invalid_partner_key',
  'partner_revoked',
  'rate_limited',
  'internal_error',
];

/** Errors any route behind a widget session token may return. */
export const WIDGET_TOKEN_ROUTE_ERRORS: readonly ErrorCode[] = [
  'missing_authorization',
  'malformed_authorization',
  'invalid_widget_token',
  'widget_token_expired',
  'partner_revoked',
  'internal_error',
];

const BODY_ERRORS: readonly ErrorCode[] = [
  'invalid_json',
  'invalid_body',
  'unsupported_media_type',
  'request_too_large',
];

/** Every HTTP route the service serves, described once for the server and the OpenAPI document. */
export const REST_ENDPOINTS = [
  {
    method: 'GET',
    path: '/api/v1/templates',
    operationId: 'listTemplates',
    summary: 'List the note templates',
    tag: 'Templates',
    auth: 'api_key',
    success: { status: 200, description: 'Every template, curated ones first.', schema: templateListSchema },
    errors: [],
  },
  {
    method: 'POST',
    path: '/api/v1/notes',
    operationId: 'createNote',
    summary: 'Generate a clinical note from a conversation for a template',
    tag: 'Notes',
    auth: 'api_key',
    requestBody: { schema: createNoteRequestSchema, required: true },
    success: { status: 201, description: 'The note, stored until its expires_at.', schema: noteSchema },
    errors: [...BODY_ERRORS, 'template_not_found', 'conversation_too_long'],
  },
  {
    method: 'GET',
    path: '/api/v1/notes/{id}',
    operationId: 'retrieveNote',
    summary: 'Retrieve a note made by this project environment',
    tag: 'Notes',
    auth: 'api_key',
    success: { status: 200, description: 'The stored note.', schema: noteSchema },
    errors: ['note_not_found'],
  },
  {
    method: 'POST',
    path: '/api/v1/realtime/tokens',
    operationId: 'createRealtimeToken',
    summary: 'Mint a temporary realtime token (sk_ keys only)',
    tag: 'Realtime',
    auth: 'api_key',
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
  {
    method: 'POST',
    path: '/api/widget/token',
    operationId: 'createWidgetToken',
    summary: 'Mint a widget session token (partner backends only; never from a browser)',
    tag: 'Widget',
    auth: 'partner_key',
    requestBody: { schema: widgetTokenRequestSchema, required: true },
    success: {
      status: 200,
      description: 'The JWT for the iframe’s token parameter.',
      schema: widgetTokenResponseSchema,
    },
    errors: BODY_ERRORS,
  },
  {
    method: 'GET',
    path: '/api/widget/session',
    operationId: 'getWidgetSession',
    summary: 'Who the widget works for: clinician, partner, allowed origins, token expiry',
    tag: 'Widget',
    auth: 'widget_token',
    success: { status: 200, description: 'The widget session.', schema: widgetSessionInfoSchema },
    errors: [],
  },
  {
    method: 'POST',
    path: '/api/widget/encounters',
    operationId: 'openWidgetEncounter',
    summary: 'Open the encounter for the token’s emrSessionId, or resume it',
    tag: 'Widget',
    auth: 'widget_token',
    success: {
      status: 200,
      description: 'The encounter; the same sessionId on every relaunch with the same emrSessionId.',
      schema: widgetEncounterSchema,
    },
    errors: [],
  },
  {
    method: 'PUT',
    path: '/api/widget/encounters/{sessionId}/patient-context',
    operationId: 'setWidgetPatientContext',
    summary: 'Set the encounter’s patient and clinical context (the PATIENT_CONTEXT fields)',
    tag: 'Widget',
    auth: 'widget_token',
    requestBody: { schema: setPatientContextRequestSchema, required: true },
    success: {
      status: 200,
      description: 'The patient is recorded and the note template resolved.',
      schema: patientContextResultSchema,
    },
    errors: [...BODY_ERRORS, 'encounter_not_found', 'patient_mismatch'],
  },
  {
    method: 'POST',
    path: '/api/widget/realtime-tokens',
    operationId: 'createWidgetRealtimeToken',
    summary: 'Mint a temporary realtime token for an encounter’s audio',
    tag: 'Widget',
    auth: 'widget_token',
    requestBody: { schema: widgetRealtimeTokenRequestSchema, required: true },
    success: {
      status: 201,
      description: 'The token; it never outlives the widget token.',
      schema: realtimeTokenSchema,
    },
    errors: [...BODY_ERRORS, 'encounter_not_found', 'consent_required'],
  },
  {
    method: 'GET',
    path: '/api/widget/encounters/{sessionId}',
    operationId: 'getWidgetEncounter',
    summary: 'The encounter’s whole state, to restore a relaunched widget',
    tag: 'Widget',
    auth: 'widget_token',
    success: {
      status: 200,
      description: 'Patient context, template, consent, transcript, resumable session, notes and documents.',
      schema: widgetEncounterStateSchema,
    },
    errors: ['encounter_not_found'],
  },
  {
    method: 'POST',
    path: '/api/widget/encounters/{sessionId}/consent',
    operationId: 'recordWidgetConsent',
    summary: 'Record the patient’s consent to recording (required before a realtime token is minted)',
    tag: 'Widget',
    auth: 'widget_token',
    requestBody: { schema: recordConsentRequestSchema, required: true },
    success: {
      status: 200,
      description: 'The consent as stored; a repeated call returns the first one unchanged.',
      schema: widgetConsentSchema,
    },
    errors: [...BODY_ERRORS, 'encounter_not_found'],
  },
  {
    method: 'GET',
    path: '/api/widget/encounters/{sessionId}/transcript',
    operationId: 'getWidgetTranscript',
    summary: 'Every stored segment of every realtime session of the encounter, and the joined text',
    tag: 'Widget',
    auth: 'widget_token',
    success: { status: 200, description: 'The transcript.', schema: widgetTranscriptSchema },
    errors: ['encounter_not_found'],
  },
  {
    method: 'POST',
    path: '/api/widget/encounters/{sessionId}/notes',
    operationId: 'generateWidgetNote',
    summary: 'Write a note from the encounter’s transcript with its locked template and patient context',
    tag: 'Widget',
    auth: 'widget_token',
    requestBody: { schema: generateWidgetNoteRequestSchema, required: false },
    success: { status: 201, description: 'The note, with what PUSH_NOTE carries.', schema: widgetNoteSchema },
    errors: [...BODY_ERRORS, 'encounter_not_found', 'transcript_empty', 'conversation_too_long'],
  },
  {
    method: 'GET',
    path: '/api/widget/encounters/{sessionId}/notes',
    operationId: 'listWidgetNotes',
    summary: 'The encounter’s notes, latest first',
    tag: 'Widget',
    auth: 'widget_token',
    success: { status: 200, description: 'The notes.', schema: widgetNoteListSchema },
    errors: ['encounter_not_found'],
  },
  {
    method: 'PUT',
    path: '/api/widget/encounters/{sessionId}/notes/{noteId}',
    operationId: 'updateWidgetNote',
    summary: 'Save edited note sections (a new revision)',
    tag: 'Widget',
    auth: 'widget_token',
    requestBody: { schema: updateWidgetNoteRequestSchema, required: true },
    success: { status: 200, description: 'The note as saved.', schema: widgetNoteSchema },
    errors: [...BODY_ERRORS, 'encounter_not_found', 'note_not_found', 'revision_conflict'],
  },
  {
    method: 'POST',
    path: '/api/widget/encounters/{sessionId}/documents',
    operationId: 'createWidgetDocument',
    summary: 'Write a referral letter, a patient letter or a form from the encounter',
    tag: 'Widget',
    auth: 'widget_token',
    requestBody: { schema: createWidgetDocumentRequestSchema, required: true },
    success: {
      status: 201,
      description: 'The document, with what PUSH_DOCUMENT carries.',
      schema: widgetDocumentSchema,
    },
    errors: [...BODY_ERRORS, 'encounter_not_found', 'note_not_found'],
  },
  {
    method: 'GET',
    path: '/api/widget/encounters/{sessionId}/documents',
    operationId: 'listWidgetDocuments',
    summary: 'The encounter’s documents, latest first',
    tag: 'Widget',
    auth: 'widget_token',
    success: { status: 200, description: 'The documents.', schema: widgetDocumentListSchema },
    errors: ['encounter_not_found'],
  },
  {
    method: 'PUT',
    path: '/api/widget/encounters/{sessionId}/documents/{documentId}',
    operationId: 'updateWidgetDocument',
    summary: 'Save an edited document (a new revision)',
    tag: 'Widget',
    auth: 'widget_token',
    requestBody: { schema: updateWidgetDocumentRequestSchema, required: true },
    success: { status: 200, description: 'The document as saved.', schema: widgetDocumentSchema },
    errors: [...BODY_ERRORS, 'encounter_not_found', 'document_not_found', 'revision_conflict'],
  },
  {
    method: 'POST',
    path: '/api/widget/encounters/{sessionId}/documents/{documentId}/pdf',
    operationId: 'createWidgetDocumentPdf',
    summary: 'Render the document’s current revision as a PDF behind an expiring signed link',
    tag: 'Widget',
    auth: 'widget_token',
    success: { status: 200, description: 'The link for PUSH_DOCUMENT.pdfUrl.', schema: widgetDocumentPdfSchema },
    errors: ['encounter_not_found', 'document_not_found'],
  },
  {
    method: 'GET',
    path: '/api/widget/documents/{documentId}/pdf',
    operationId: 'downloadWidgetDocumentPdf',
    summary: 'Download a document’s PDF through its signed link (`?revision=…&expires=…&signature=…`)',
    tag: 'Widget',
    auth: 'none',
    success: {
      status: 200,
      description: 'The PDF, as an attachment; the signed query is the only credential.',
      schema: z.string(),
      contentType: 'application/pdf',
    },
    errors: ['invalid_pdf_link', 'pdf_link_expired', 'document_not_found', 'partner_revoked', 'internal_error'],
  },
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    operationId: 'widgetJwks',
    summary: 'Public keys that verify widget session tokens',
    tag: 'Widget',
    auth: 'none',
    success: {
      status: 200,
      description: 'A JSON Web Key Set; tokens name their key in the `kid` header.',
      schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/widget',
    operationId: 'widgetPage',
    summary: 'The widget page for the iframe (`?token=<widget JWT>`)',
    tag: 'Widget',
    auth: 'none',
    success: {
      status: 200,
      description: 'HTML, framable only by the partner’s allowed origins (CSP frame-ancestors).',
      schema: z.string(),
      contentType: 'text/html',
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/widget/assets/{file}',
    operationId: 'widgetAsset',
    summary: 'A file of the widget app (script, style), named by its content hash',
    tag: 'Widget',
    auth: 'none',
    success: {
      status: 200,
      description: 'The file, cacheable for a year: a new build gives new names.',
      schema: z.string(),
      contentType: 'text/javascript',
    },
    errors: ['route_not_found'],
  },
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This OpenAPI 3.1 document',
    tag: 'Operations',
    auth: 'none',
    success: {
      status: 200,
      description: 'The OpenAPI document, generated from the same schemas the server validates with.',
      schema: z.record(z.string(), z.unknown()),
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'liveness',
    summary: 'Liveness: the process is serving',
    tag: 'Operations',
    auth: 'none',
    success: { status: 200, description: 'The process is alive.', schema: healthSchema },
    errors: [],
  },
  {
    method: 'GET',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'Readiness: the database (and Redis when configured) answer',
    tag: 'Operations',
    auth: 'none',
    success: { status: 200, description: 'Ready to serve; 503 with the same shape when not.', schema: healthSchema },
    errors: ['service_unavailable'],
  },
] as const satisfies readonly EndpointSpec[];

export type EndpointId = (typeof REST_ENDPOINTS)[number]['operationId'];

export function endpoint(operationId: EndpointId): EndpointSpec {
  const found = REST_ENDPOINTS.find((candidate) => candidate.operationId === operationId);
  if (found === undefined) throw new Error(`unknown endpoint ${operationId}`);
  return found;
}
