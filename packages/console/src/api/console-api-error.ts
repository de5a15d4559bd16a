import { ServiceCallError, type ErrorCode, type ErrorDetail, type TransportErrorCode } from '@chartwright/protocol';

/** The codes that mean "no session": the console shows its sign-in page. */
const SIGNED_OUT: readonly (ErrorCode | TransportErrorCode)[] = [
  'console_authentication_required',
  'console_session_expired',
];

/** A console API call that failed: the code, message and field problems of the service's REST error body, or a transport code. */
export class ConsoleApiError extends ServiceCallError {
  override readonly name = 'ConsoleApiError';

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
