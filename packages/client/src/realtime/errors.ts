import type { RealtimeErrorCode } from '@chartwright/protocol';

import { ChartwrightError } from '../errors.js';

/** Codes the realtime client itself reports (the service's own are `REALTIME_ERROR_CODES`). */
export type RealtimeClientErrorCode =
  | 'invalid_realtime_options'
  | 'token_callback_failed'
  | 'token_refresh_failed'
  | 'misaligned_audio'
  | 'audio_buffer_full'
  | 'session_closed'
  | 'connection_failed'
  | 'reconnect_failed';

/**
 * A realtime session problem: an `error` event of the service (its `code` and `message`), or one
 * the client detected. `fatal` means the session is over.
 */
export class RealtimeError extends ChartwrightError {
  // Spelled out: minified bundles rename classes.
  override readonly name: string = 'RealtimeError';
  override readonly code: RealtimeErrorCode | RealtimeClientErrorCode | (string & {});
  readonly fatal: boolean;

  constructor(
    message: string,
    code: RealtimeErrorCode | RealtimeClientErrorCode | (string & {}),
    fatal: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, code, options);
    this.code = code;
    this.fatal = fatal;
  }
}

/**
 * `send()` was given more audio than the session may hold unacknowledged (while the service lags
 * or the session reconnects). The audio was not accepted; the session carries on.
 */
export class RealtimeBufferOverflowError extends RealtimeError {
  override readonly name: string = 'RealtimeBufferOverflowError';
  readonly maxBufferedAudioMs: number;

  constructor(maxBufferedAudioMs: number) {
    super(
      `More than ${maxBufferedAudioMs} ms of audio is waiting to be acknowledged; this audio was not accepted.`,
      'audio_buffer_full',
      false,
    );
    this.maxBufferedAudioMs = maxBufferedAudioMs;
  }
}
