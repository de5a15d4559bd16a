import { ERROR_CODES, formatDetail, type ErrorCode, type ErrorDetail } from '@chartwright/protocol';

interface AppErrorOptions {
  details?: readonly ErrorDetail[];
  headers?: Readonly<Record<string, string>>;
  cause?: unknown;
}

/**
 * The one error type the service throws on purpose. Its message is shown to the caller, so it must
 * never carry a credential or patient data; anything that is not an AppError becomes a generic 500.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: readonly ErrorDetail[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
  }

  /** A 400 that names every invalid field at once. */
  static invalidBody(details: readonly ErrorDetail[], subject = 'Request body'): AppError {
    const named = details.map((detail) =>
      detail.path === '' ? `${subject}: ${detail.message}` : formatDetail(detail),
    );
    return new AppError('invalid_body', `Invalid ${subject.toLowerCase()}: ${named.join('; ')}`, { details });
  }

  static invalidQuery(details: readonly ErrorDetail[]): AppError {
    const named = details.map((detail) => (detail.path === '' ? detail.message : formatDetail(detail)));
    return new AppError('invalid_query', `Invalid query: ${named.join('; ')}`, { details });
  }
}
