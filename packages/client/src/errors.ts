import type { ErrorCode, ErrorDetail, ErrorType } from '@chartwright/protocol';

/** Base of every error the library throws; `code` is stable, the message is for humans. */
export class ChartwrightError extends Error {
  readonly code: string;

  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

export interface APIErrorInit {
  status: number;
  /** The body's `code`, e.g. `invalid_api_key`; `unknown_error` when the body was not a Chartwright error. */
  code: ErrorCode | (string & {});
  type: ErrorType | (string & {}) | undefined;
  message: string;
  /** From the body, else the `x-request-id` response header. */
  requestId: string | undefined;
  param: string | undefined;
  details: readonly ErrorDetail[];
  headers: Headers;
}

/** The server answered with an error status. Subclasses are chosen by status. */
export class APIError extends ChartwrightError {
  readonly status: number;
  override readonly code: ErrorCode | (string & {});
  readonly type: ErrorType | (string & {}) | undefined;
  readonly requestId: string | undefined;
  readonly param: string | undefined;
  readonly details: readonly ErrorDetail[];
  readonly headers: Headers;

  constructor(init: APIErrorInit) {
    super(init.message, init.code);
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.requestId = init.requestId;
    this.param = init.param;
    this.details = init.details;
    this.headers = init.headers;
  }
}

/** 400 (and 413, 415, 422): the request itself is wrong; retrying it unchanged will not help. */
export class InvalidRequestError extends APIError {}
/** 401: the key or token is missing, unknown, revoked or expired. */
export class AuthenticationError extends APIError {}
/** 403: the credential is valid but may not do this (e.g. a temporary token on a REST route). */
export class PermissionDeniedError extends APIError {}
/** 404: the resource (or route) does not exist. */
export class NotFoundError extends APIError {}
/** 409: the request conflicts with the resource's current state. */
export class ConflictError extends APIError {}
/** 429: over the rate limit; `retryAfterSeconds` says how long the server asked to wait. */
export class RateLimitError extends APIError {
  readonly retryAfterSeconds: number | undefined;

  constructor(init: APIErrorInit & { retryAfterSeconds: number | undefined }) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}
/** 5xx: the service failed or is unavailable; the `requestId` identifies it in the service's logs. */
export class InternalServerError extends APIError {}

/** The request never got an HTTP answer (DNS, refused connection, reset, TLS). */
export class APIConnectionError extends ChartwrightError {
  constructor(
    message = 'Could not connect to the Chartwright service.',
    options?: { cause?: unknown },
    code = 'connection_error',
  ) {
    super(message, code, options);
  }
}

/** An attempt took longer than the client's `timeout` and no retry was left. */
export class APITimeoutError extends APIConnectionError {
  constructor(timeoutMs: number, options?: { cause?: unknown }) {
    super(`The request timed out after ${timeoutMs} ms.`, options, 'timeout');
  }
}

/** The caller's `signal` aborted the request (during an attempt or while waiting to retry). */
export class UserAbortError extends ChartwrightError {
  constructor(options?: { cause?: unknown }) {
    super('The request was aborted.', 'aborted', options);
  }
}
