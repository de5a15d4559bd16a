import { z } from 'zod';

import { componentRegistry } from './rest/registry.js';

/** The `type` of an error body: the broad class a client branches on, tied to the HTTP status. */
export const ERROR_TYPES = Object.freeze({
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  method_not_allowed_error: 405,
  request_timeout_error: 408,
  conflict_error: 409,
  request_too_large: 413,
  unsupported_media_type_error: 415,
  headers_too_large_error: 431,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 503,
} as const);
export type ErrorType = keyof typeof ERROR_TYPES;

interface ErrorCodeSpec {
  readonly type: ErrorType;
  readonly status: number;
  readonly description: string;
}

function code(type: ErrorType, description: string): ErrorCodeSpec {
  return { type, status: ERROR_TYPES[type], description };
}

/**
 * Every REST error code, declared once. Clients branch on `code`; the message is for humans and may
 * change between releases.
 */
export const ERROR_CODES = Object.freeze({
  invalid_json: code('invalid_request_error', 'The body is not valid JSON.'),
  invalid_body: code('invalid_request_error', 'The body failed validation; `details` lists every problem.'),
  invalid_query: code(
    'invalid_request_error',
    'A query parameter failed validation (unknown, or a value it does not take); `details` lists every problem.',
  ),
  bad_request: code('invalid_request_error', 'The request is malformed at the HTTP level.'),
  body_not_allowed: code('invalid_request_error', 'The operation takes no body; send the request without one.'),
  unsupported_media_type: code('unsupported_media_type_error', 'The Content-Type is not application/json.'),
  request_timeout: code(
    'request_timeout_error',
    'The request did not arrive in time: headers within HEADERS_TIMEOUT_MS, the whole request within REQUEST_TIMEOUT_MS.',
  ),
  headers_too_large: code('headers_too_large_error', 'The request headers are larger than the service accepts.'),
  request_too_large: code('request_too_large', 'The body is larger than the route accepts.'),
  route_not_found: code('not_found_error', 'No route has this path.'),
  method_not_allowed: code(
    'method_not_allowed_error',
    'The path exists but not with this method; see the Allow header.',
  ),
  missing_authorization: code('authentication_error', 'No Authorization header was sent.'),
  malformed_authorization: code('authentication_error', 'The Authorization header is not `Bearer <key>`.'),
  invalid_api_key: code('authentication_error', 'The key or token is not one this service issued.'),
  api_key_revoked: code('authentication_error', 'The key was revoked.'),
  api_key_expired: code('authentication_error', 'The key was rotated and its grace period has ended.'),
  realtime_token_expired: code('authentication_error', 'The temporary realtime token has expired.'),
  temporary_token_not_allowed: code(
    'permission_error',
    'Temporary svc_rt_ tokens may only open the realtime WebSocket; REST calls need an sk_ key.',
  ),
  missing_partner_key: code('authentication_error', 'No X-Partner-Key header was sent.'),
  invalid_partner_key: code(
    'authentication_error',
    'The X-Partner-Key is not `<PARTNER_ID>.<PARTNER_SECRET>` of a partner this service knows.',
  ),
  partner_revoked: code('authentication_error', 'The partner was revoked; its keys, widget tokens and sessions stop.'),
  invalid_widget_token: code(
    'authentication_error',
    'The widget token is malformed, forged or not meant for this service.',
  ),
  widget_token_expired: code('authentication_error', 'The widget token has expired; ask the EMR for a new one.'),
  project_not_found: code('not_found_error', 'No project has this id.'),
  api_key_not_found: code('not_found_error', 'No API key has this id.'),
  partner_not_found: code('not_found_error', 'No partner has this id.'),
  note_not_found: code(
    'not_found_error',
    'No note with this id exists for this project environment, or for this widget encounter (or it passed its retention).',
  ),
  realtime_session_not_found: code(
    'not_found_error',
    'No realtime session with this id exists for this project environment, or for this widget encounter (or it passed its retention).',
  ),
  transcript_segment_not_found: code(
    'not_found_error',
    'No segment with this id was stored in the realtime session (or it passed its retention).',
  ),
  speaker_label_not_found: code('not_found_error', 'No segment of the realtime session has this speaker label.'),
  speaker_role_unknown: code(
    'conflict_error',
    'The speaker label is neither the clinician nor the patient, so there is no role to swap; correct its segments instead.',
  ),
  realtime_session_active: code(
    'conflict_error',
    'The realtime session is streaming on an open socket; stop it (or wait for it to end) before deleting it.',
  ),
  template_not_found: code(
    'invalid_request_error',
    'No template has the template_id given; GET /api/v1/templates lists them.',
  ),
  conversation_too_long: code(
    'request_too_large',
    'The conversation (conversation_text, or the text of segments) is longer than the service accepts.',
  ),
  encounter_not_found: code(
    'not_found_error',
    'No encounter with this id belongs to the widget session (its clinician, and the widget token’s emrSessionId when it names one).',
  ),
  patient_mismatch: code(
    'conflict_error',
    'The encounter already belongs to another patient; open a new encounter for this one.',
  ),
  consent_required: code(
    'conflict_error',
    'The patient’s consent to recording is not recorded for the encounter; record it before the first recording.',
  ),
  transcript_empty: code(
    'conflict_error',
    'The encounter has no transcript to write a note from; record the visit or send conversationText.',
  ),
  revision_conflict: code(
    'conflict_error',
    'The note, document or transcript segment changed since the revision the edits were made on; reload it and edit again.',
  ),
  document_not_found: code(
    'not_found_error',
    'No document with this id belongs to the encounter (or it passed its retention).',
  ),
  webhook_url_refused: code(
    'invalid_request_error',
    'The callback_url or webhook endpoint url is not one the service calls: https only (http only to hosts the operator allows), never a private, loopback, link-local, unique-local, multicast or unspecified address unless the operator allows it.',
  ),
  webhook_endpoint_not_found: code(
    'not_found_error',
    'No webhook endpoint with this id exists for this project environment.',
  ),
  callback_secret_missing: code(
    'conflict_error',
    'Events sent to a callback_url are signed with the project environment’s callback secret: create it first (POST /api/v1/webhooks/callback-secret).',
  ),
  invalid_pdf_link: code('permission_error', 'The PDF link is malformed, altered or was not issued by this service.'),
  pdf_link_expired: code('permission_error', 'The PDF link has expired; the widget renders a new one on request.'),
  partner_not_active: code('conflict_error', 'The partner was revoked, so its secret cannot be rotated.'),
  api_key_not_active: code('conflict_error', 'The key was already rotated or revoked, so it cannot be rotated again.'),
  console_authentication_required: code(
    'authentication_error',
    'Sign in to the console (its session cookie) or send an organisation admin token (Authorization: Bearer cw_admin_…).',
  ),
  console_session_expired: code(
    'authentication_error',
    'The console session ended (idle too long, past its absolute expiry, signed out, or the member was removed); sign in again.',
  ),
  invalid_credentials: code('authentication_error', 'The e-mail or password is wrong.'),
  invalid_admin_token: code('authentication_error', 'The admin token is not one this service issued.'),
  admin_token_revoked: code('authentication_error', 'The admin token was revoked.'),
  invalid_metrics_token: code(
    'authentication_error',
    'The metrics listener’s bearer token is not its METRICS_TOKEN (operators’ `GET /metrics` only).',
  ),
  csrf_token_invalid: code(
    'permission_error',
    'A console change (POST, PATCH, DELETE) must send the session’s CSRF token in X-CSRF-Token.',
  ),
  project_credential_not_allowed: code(
    'permission_error',
    'Project keys (sk_) and realtime tokens (svc_rt_) cannot manage the organisation; use the console or an admin token.',
  ),
  role_forbidden: code('permission_error', 'The member’s or admin token’s role does not allow this.'),
  console_link_invalid: code('not_found_error', 'The setup or invitation link is unknown, already used, or expired.'),
  member_not_found: code('not_found_error', 'No member of the organisation has this id.'),
  sso_not_available: code(
    'not_found_error',
    'Single sign-on is not switched on for this e-mail address’s organisation (or the address is no member’s).',
  ),
  sso_required: code(
    'permission_error',
    'The organisation signs its members in with its OpenID provider only; use “Sign in with single sign-on”.',
  ),
  invitation_not_found: code('not_found_error', 'No open invitation of the organisation has this id.'),
  admin_token_not_found: code('not_found_error', 'No admin token of the organisation has this id.'),
  member_exists: code('conflict_error', 'A console member already has this e-mail address.'),
  last_owner: code('conflict_error', 'The organisation’s last owner cannot be removed or given another role.'),
  invalid_idempotency_key: code(
    'invalid_request_error',
    'The Idempotency-Key header is not 1–255 printable ASCII characters.',
  ),
  idempotency_key_reused: code(
    'conflict_error',
    'The Idempotency-Key was already used for this operation with another body or path; use a new key for a new request.',
  ),
  idempotency_key_in_use: code(
    'conflict_error',
    'A request with this Idempotency-Key is still being served; retry after the Retry-After header to get its answer.',
  ),
  rate_limited: code('rate_limit_error', 'Too many requests; retry after the Retry-After header.'),
  internal_error: code('api_error', 'An unexpected error; the requestId identifies it in the logs.'),
  note_worker_crashed: code(
    'api_error',
    'The worker process writing the note stopped (a fault, or it was killed); it is replaced, so the same request may be sent again.',
  ),
  note_generation_failed: code(
    'api_error',
    'The asynchronous note could not be written in its attempts (the note engine or its worker failed each time); send the request again.',
  ),
  notes_overloaded: code(
    'overloaded_error',
    'As many notes as the instance queues are already waiting to be written; retry after the Retry-After header.',
  ),
  service_unavailable: code('overloaded_error', 'The service is starting, stopping or cannot reach a dependency.'),
} as const satisfies Record<string, ErrorCodeSpec>);
export type ErrorCode = keyof typeof ERROR_CODES;

export const errorDetailSchema = z.object({
  path: z.string().describe('Field path such as `expiresInSeconds` or `sections[2].key`; empty for the body.'),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export const errorBodySchema = z
  .object({
    error: z.object({
      type: z.enum(Object.keys(ERROR_TYPES) as [ErrorType, ...ErrorType[]]),
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      requestId: z.string(),
      param: z.string().optional().describe('The first offending field, when one field is to blame.'),
      details: z.array(errorDetailSchema).optional(),
    }),
  })
  .register(componentRegistry, { id: 'Error', description: 'The body of every REST error response.' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
