import type { ErrorDetail } from '@chartwright/protocol';

import {
  APIError,
  AuthenticationError,
  ConflictError,
  InternalServerError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type APIErrorInit,
} from '../errors.js';
import { redactCredentials } from './redact.js';
import { retryAfterMs } from './retry.js';

interface ErrorFields {
  code?: unknown;
  type?: unknown;
  message?: unknown;
  requestId?: unknown;
  param?: unknown;
  details?: unknown;
}

/** The `error` object of the service's error body (REST and widget envelopes alike), if there is one. */
function errorFieldsOf(bodyText: string): ErrorFields {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) {
      const error = parsed.error;
      if (typeof error === 'object' && error !== null) return error;
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): the status alone has to do.
  }
  return {};
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The `code` of the service's error body, if the text is one. */
export function errorCodeOf(bodyText: string): string | undefined {
  return stringOrUndefined(errorFieldsOf(bodyText).code);
}

function detailsOf(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { path, message } = entry as { path?: unknown; message?: unknown };
    return typeof path === 'string' && typeof message === 'string'
      ? [{ path, message: redactCredentials(message) }]
      : [];
  });
}

/**
 * The typed error for an error response: the class follows the status, the fields come from the
 * service's error body. Text that is not a Chartwright error body is never copied into the
 * message (it could be anything a proxy sends).
 */
export function apiErrorFromResponse(status: number, headers: Headers, bodyText: string): APIError {
  const fields = errorFieldsOf(bodyText);
  const code = stringOrUndefined(fields.code) ?? 'unknown_error';
  const requestId = stringOrUndefined(fields.requestId) ?? headers.get('x-request-id') ?? undefined;
  const serverMessage = stringOrUndefined(fields.message);
  const described =
    serverMessage === undefined ? `Request failed with status ${status}.` : redactCredentials(serverMessage);
  const init: APIErrorInit = {
    status,
    code,
    type: stringOrUndefined(fields.type),
    message: `${status} ${code}: ${described}${requestId === undefined ? '' : ` (request ${requestId})`}`,
    requestId,
    param: stringOrUndefined(fields.param),
    details: detailsOf(fields.details),
    headers,
  };
  switch (status) {
    case 400:
    case 413:
    case 415:
    case 422:
      return new InvalidRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 429: {
      const wait = retryAfterMs(headers);
      return new RateLimitError({ ...init, retryAfterSeconds: wait === undefined ? undefined : wait / 1000 });
    }
    default:
      return status >= 500 ? new InternalServerError(init) : new APIError(init);
  }
}
