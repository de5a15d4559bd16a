import type { ErrorCode, ErrorDetail } from '@chartwright/protocol';

/** Not an answer from the service: the request never got one (offline, refused). */
export type TransportErrorCode = 'connection_error';

/** The codes that mean "no session": the console shows its sign-in page. */
const SIGNED_OUT: readonly (ErrorCode | TransportErrorCode)[] = [
  'console_authentication_required',
  'console_session_expired',
];

/**
 * A console API call that failed, with the service's stable `code` (from its REST error body) or a
 * transport code. The message is the service's, which never holds a secret.
 */
export class ConsoleApiError extends Error {
  override readonly name = 'ConsoleApiError';

  constructor(
    message: string,
    readonly code: ErrorCode | TransportErrorCode,
    /** 0 when there was no HTTP answer. */
    readonly status: number,
    readonly details: readonly ErrorDetail[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The session is missing or over: sign in again. */
  get signedOut(): boolean {
    return SIGNED_OUT.includes(this.code);
  }

  /**
   * The validation problems of one field of the request body, by its top-level name: `allowedOrigins`
   * gathers `allowedOrigins[1]`'s, so a form shows them under the field they belong to.
   */
  problemsOf(field: string): ErrorDetail[] {
    return this.details.filter(
      ({ path }) => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`),
    );
  }
}

interface ErrorBodyShape {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

/** The error a non-2xx answer carries, whatever shape its body has. */
export async function errorOfResponse(response: Response): Promise<ConsoleApiError> {
  const body = (await response.json().catch(() => null)) as ErrorBodyShape | null;
  const error = body?.error;
  const code = typeof error?.code === 'string' ? (error.code as ErrorCode) : 'internal_error';
  const message = typeof error?.message === 'string' ? error.message : `The service answered ${response.status}.`;
  const details = Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : [];
  return new ConsoleApiError(message, code, response.status, details);
}
