/**
 * Why a language-model engine gave up, as a stable code the API returns and logs:
 * - `provider_timeout`: no complete answer within the configured time;
 * - `provider_error`: the HTTP call failed (network error, non-2xx status, a body that is not a chat
 *   completion);
 * - `invalid_output`: the model answered, twice, with something that is not a valid note for the template.
 */
export type EngineFailureCode = 'provider_timeout' | 'provider_error' | 'invalid_output';

export const ENGINE_FAILURE_CODES: readonly EngineFailureCode[] = Object.freeze([
  'provider_timeout',
  'provider_error',
  'invalid_output',
]);

/**
 * A provider failure. The message is safe to log: it names codes, statuses and counts, never a
 * transcript, a note or a credential.
 */
export class EngineFailure extends Error {
  readonly code: EngineFailureCode;
  /** The provider's HTTP status, when it answered with one. */
  readonly status: number | undefined;

  constructor(code: EngineFailureCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngineFailure';
    this.code = code;
    this.status = options.status;
  }
}
