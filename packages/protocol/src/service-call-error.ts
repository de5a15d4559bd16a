// What the browser apps (the widget, the console) make of a failed call; no zod schema here, so the
// console's bundle, which carries no zod, can take it too.
import type { ErrorCode, ErrorDetail } from './errors.js';

/** Not an answer from the service: the request never got one (offline, refused, aborted). */
export type TransportErrorCode = 'connection_error' | 'aborted';

/**
 * A call to the service that failed, with the service's stable `code` or a transport code. The
 * message is the service's, which never holds PHI, a token or a key.
 */
export class ServiceCallError extends Error {
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
}

/** A fetch Response as far as reading its error goes (no DOM types here). */
export interface ErrorAnswer {
  status: number;
  json(): Promise<unknown>;
}

interface ErrorBodyShape {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

/**
 * The error a non-2xx answer carries, whatever shape its body has: the REST error body and the
 * widget's envelope both hold it under `error`. Made with `Kind`, the app's own subclass.
 */
export async function errorOfAnswer<E extends ServiceCallError>(
  answer: ErrorAnswer,
  Kind: new (...args: ConstructorParameters<typeof ServiceCallError>) => E,
): Promise<E> {
  const body = (await answer.json().catch(() => null)) as ErrorBodyShape | null;
  const error = body?.error;
  const code = typeof error?.code === 'string' ? (error.code as ErrorCode) : 'internal_error';
  const message = typeof error?.message === 'string' ? error.message : `The service answered ${answer.status}.`;
  const details = Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : [];
  return new Kind(message, code, answer.status, details);
}
