// Plain values, no schemas: the browser client imports them without bundling zod.
/**
 * What each realtime error code, close code and end reason means for the session, decided once:
 * the service ends sessions by these tables and the client reacts to them by the same ones.
 */
import type { RealtimeEndReason } from './constants.js';
import { REALTIME_CLOSE_CODES, type RealtimeErrorCode } from './errors.js';

export type RealtimeCloseCode = (typeof REALTIME_CLOSE_CODES)[keyof typeof REALTIME_CLOSE_CODES];

export type RealtimeErrorOutcome =
  | {
      /** The frame or message is dropped and the session carries on. */
      fatal: false;
      /** A `start` refused with it may be accepted when sent again. */
      retryStart: boolean;
    }
  | {
      /** The service ends the session: `ended` (if it had started), then this close code. */
      fatal: true;
      closeCode: RealtimeCloseCode;
      endReason: RealtimeEndReason;
      /** A resume may continue the session it ended; false: resuming cannot help. */
      resumable: boolean;
      /** A `start` it refused may be accepted on another socket. */
      retryStart: boolean;
    };

const C = REALTIME_CLOSE_CODES;
const dropped = { fatal: false, retryStart: false } as const;

export const REALTIME_ERROR_OUTCOMES = Object.freeze({
  invalid_message: dropped,
  unknown_message_type: dropped,
  audio_before_start: dropped,
  already_started: dropped,
  unsupported_encoding: dropped,
  unsupported_language: dropped,
  misaligned_audio: dropped,
  frame_too_large: dropped,
  resume_failed: { fatal: false, retryStart: true },
  at_capacity: { fatal: true, closeCode: C.tryAgainLater, endReason: 'error', resumable: true, retryStart: true },
  tenant_at_capacity: {
    fatal: true,
    closeCode: C.tryAgainLater,
    endReason: 'error',
    resumable: true,
    retryStart: true,
  },
  recognizer_unavailable: {
    fatal: true,
    closeCode: C.internalError,
    endReason: 'error',
    resumable: false,
    retryStart: false,
  },
  recognizer_overloaded: {
    fatal: true,
    closeCode: C.overloaded,
    endReason: 'error',
    resumable: false,
    retryStart: false,
  },
  recognizer_crashed: {
    fatal: true,
    closeCode: C.internalError,
    endReason: 'error',
    resumable: true,
    retryStart: true,
  },
  idle_timeout: {
    fatal: true,
    closeCode: C.idleTimeout,
    endReason: 'idle_timeout',
    resumable: true,
    retryStart: false,
  },
  session_limit: {
    fatal: true,
    closeCode: C.sessionLimit,
    endReason: 'session_limit',
    resumable: false,
    retryStart: false,
  },
  credential_expired: {
    fatal: true,
    closeCode: C.credentialExpired,
    endReason: 'credential_expired',
    resumable: true,
    retryStart: false,
  },
  internal_error: { fatal: true, closeCode: C.internalError, endReason: 'error', resumable: true, retryStart: true },
} as const satisfies Record<RealtimeErrorCode, RealtimeErrorOutcome>);

/** The codes of the errors that end a session. */
export type RealtimeFatalErrorCode = {
  [K in RealtimeErrorCode]: (typeof REALTIME_ERROR_OUTCOMES)[K]['fatal'] extends true ? K : never;
}[RealtimeErrorCode];

/** What a close code asks of the client. */
export type RealtimeCloseOutcome =
  /** Resume the session on a new socket. */
  | 'resume'
  /** The credential expired or was revoked: resume with a fresh one, or end if none can come. */
  | 'renew_credential'
  /** The client sent something it must not: a new socket would be closed the same way. */
  | 'final';

export const REALTIME_CLOSE_OUTCOMES: Readonly<Record<RealtimeCloseCode, RealtimeCloseOutcome>> = Object.freeze({
  [C.normal]: 'resume',
  [C.goingAway]: 'resume',
  [C.policyViolation]: 'final',
  [C.messageTooBig]: 'final',
  [C.internalError]: 'resume',
  [C.tryAgainLater]: 'resume',
  [C.idleTimeout]: 'resume',
  [C.sessionLimit]: 'resume',
  [C.credentialExpired]: 'renew_credential',
  [C.invalidMessage]: 'final',
  [C.overloaded]: 'resume',
});

/** Whether a session that ended for each reason may still be resumed (within the resume window). */
export const REALTIME_END_REASON_RESUMABLE: Readonly<Record<RealtimeEndReason, boolean>> = Object.freeze({
  stopped: false,
  idle_timeout: true,
  session_limit: false,
  credential_expired: true,
  server_shutdown: true,
  error: true,
});

function entry<T>(table: Readonly<Record<PropertyKey, T>>, key: PropertyKey): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The outcome of an `error` code; undefined for a code this protocol version does not know. */
export function realtimeErrorOutcome(code: string): RealtimeErrorOutcome | undefined {
  return entry<RealtimeErrorOutcome>(REALTIME_ERROR_OUTCOMES, code);
}

/** The outcome of a close code; codes outside the table (a network's 1006…) ask for a resume. */
export function realtimeCloseOutcome(code: number): RealtimeCloseOutcome {
  return entry(REALTIME_CLOSE_OUTCOMES, code) ?? 'resume';
}

/** Whether a session that ended with `reason` may be resumed; a reason this version does not know may. */
export function isResumableEndReason(reason: string): boolean {
  return entry(REALTIME_END_REASON_RESUMABLE, reason) ?? true;
}
