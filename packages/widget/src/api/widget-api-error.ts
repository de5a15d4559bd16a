import type { ErrorCode, ErrorDetail } from '@chartwright/protocol';

/** Not an answer from the service: the request never got one (offline, refused, aborted). */
export type TransportErrorCode = 'connection_error' | 'aborted';

/**
 * A widget API call that failed, with the service's stable `code` (its error envelope) or a
 * transport code. The message is the service's, which never holds PHI, a token or a key.
 */
export class WidgetApiError extends Error {
  override readonly name = 'WidgetApiError';

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

  /** True when the request never reached the service, or its answer never came back. */
  get offline(): boolean {
    return this.code === 'connection_error';
  }
}

interface ErrorEnvelope {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

/** The error a non-2xx answer carries, whatever shape its body has. */
export async function errorOfResponse(response: Response): Promise<WidgetApiError> {
  const body = (await response.json().catch(() => null)) as ErrorEnvelope | null;
  const error = body?.error;
  const code = typeof error?.code === 'string' ? (error.code as ErrorCode) : 'internal_error';
  const message = typeof error?.message === 'string' ? error.message : `The service answered ${response.status}.`;
  const details = Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : [];
  return new WidgetApiError(message, code, response.status, details);
}
