import type { z } from 'zod';

import type { ErrorCode } from '../errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `api_key`: Authorization: Bearer sk_…; `partner_key`: X-Partner-Key; `widget_token`:
 * Authorization: Bearer <widget JWT>; `realtime`: an sk_ key or a temporary svc_rt_ token, in
 * Authorization: Bearer or as a `Sec-WebSocket-Protocol` entry `auth.<credential>`; `console`: a
 * console session cookie (with its CSRF token on changes) or an organisation admin token in
 * Authorization: Bearer cw_admin_…; `console_session`: the session cookie only; `none`: public.
 */
export type EndpointAuth =
  'api_key' | 'partner_key' | 'widget_token' | 'realtime' | 'console' | 'console_session' | 'none';

export interface EndpointSpec {
  readonly method: HttpMethod;
  /** OpenAPI path syntax: `/api/v1/notes/{id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: 'Templates' | 'Notes' | 'Webhooks' | 'Realtime' | 'Widget' | 'Console' | 'Management' | 'Operations';
  readonly auth: EndpointAuth;
  /**
   * `widget`: errors come in the `{"success": false, "error": {…}}` envelope the interface gives the
   * widget token endpoint, so the iframe and partner backends parse one shape; absent, the REST
   * error body.
   */
  readonly errorEnvelope?: 'widget';
  readonly requestBody?: { readonly schema: z.ZodType; readonly required: boolean };
  /** The query parameters it reads, each optional; unknown ones are refused (`invalid_query`). */
  readonly query?: { readonly schema: z.ZodObject };
  readonly success: {
    readonly status: number;
    readonly description: string;
    readonly schema: z.ZodType;
    /** Default application/json. */
    readonly contentType?: string;
  };
  /**
   * The operation may answer 202 Accepted instead, with this body and a Location header: the work
   * goes on after the answer (an asynchronous note), and the body says where it stands.
   */
  readonly accepted?: { readonly description: string; readonly schema: z.ZodType };
  /** Error codes this route can answer with beyond the ones every authenticated route shares. */
  readonly errors: readonly ErrorCode[];
  /** Answers besides the success, the 202 and the error codes: a 304, a page's own error page. */
  readonly otherResponses?: readonly OtherResponse[];
  /**
   * The operation makes something new each time it succeeds, so it takes an `Idempotency-Key`: a
   * retry with the same key and body is answered with the first answer instead of making another.
   */
  readonly idempotent?: true;
}

/** An answer that is neither the success nor an error body: a 304 to If-None-Match, an HTML error page. */
export interface OtherResponse {
  readonly status: number;
  readonly description: string;
  /** Absent: the answer has no body. `contentType` defaults to application/json. */
  readonly body?: { readonly schema: z.ZodType; readonly contentType?: string };
}

/** The names of a path's `{name}` segments, as a union: `'sessionId' | 'noteId'`. */
export type PathParameterName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameterName<Rest>
  : never;

/** The names of a path's `{name}` segments, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
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
  'service_unavailable',
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

/**
 * Errors any route may answer, whoever calls it: a malformed request (a path that does not decode,
 * a path parameter over 100 characters, a body that does not match its Content-Length), a fault,
 * an instance shutting down.
 */
export const EVERY_ROUTE_ERRORS: readonly ErrorCode[] = ['bad_request', 'internal_error', 'service_unavailable'];

/** The error of a route that takes no body, when one is sent anyway. */
export const NO_BODY_ERRORS: readonly ErrorCode[] = ['body_not_allowed'];

/** Errors any route behind a partner key may return. */
export const PARTNER_ROUTE_ERRORS: readonly ErrorCode[] = [
  'missing_partner_key',
  'invalid_partner_key',
  'partner_revoked',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];

/** Errors any route behind a widget session token may return. */
export const WIDGET_TOKEN_ROUTE_ERRORS: readonly ErrorCode[] = [
  'missing_authorization',
  'malformed_authorization',
  'invalid_widget_token',
  'widget_token_expired',
  'partner_revoked',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];

/** Errors any route behind a console session may return. */
export const CONSOLE_SESSION_ROUTE_ERRORS: readonly ErrorCode[] = [
  'console_authentication_required',
  'console_session_expired',
  'csrf_token_invalid',
  'project_credential_not_allowed',
  'internal_error',
  'service_unavailable',
];

/** Errors any management route may return: a console session's, an admin token's, and the role's refusal. */
export const MANAGEMENT_ROUTE_ERRORS: readonly ErrorCode[] = [
  ...CONSOLE_SESSION_ROUTE_ERRORS,
  'malformed_authorization',
  'invalid_admin_token',
  'admin_token_revoked',
  'role_forbidden',
  'rate_limited',
];

/** Errors of a route that reads a JSON body. */
export const BODY_ERRORS: readonly ErrorCode[] = [
  'invalid_json',
  'invalid_body',
  'unsupported_media_type',
  'request_too_large',
];

/** Errors of a route that reads a JSON body, and its own. */
export const withBodyErrors = (...codes: readonly ErrorCode[]): ErrorCode[] => [...BODY_ERRORS, ...codes];

/** Errors of a route that writes a note (in the note worker pool). */
export const NOTE_GENERATION_ERRORS: readonly ErrorCode[] = ['notes_overloaded', 'note_worker_crashed'];

/** Errors of an operation that takes an `Idempotency-Key` (`idempotent: true`). */
export const IDEMPOTENCY_ERRORS: readonly ErrorCode[] = [
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'idempotency_key_in_use',
];
