import {
  REALTIME_CLOSE_CODES,
  REALTIME_ERROR_OUTCOMES,
  type RealtimeEndReason,
  type RealtimeErrorCode,
  type RealtimeFatalErrorCode,
} from '@chartwright/protocol';

import type { RecognizerErrorCode } from '../../asr/recognizer.js';
import type { SessionCommand, SessionMachineConfig, SessionState, Transition, Transcript } from './types.js';

/** Audio position between two `ack` events. */
export const ACK_INTERVAL_MS = 500;
/** How long `stop` (or any other ending) waits for the recognizer's last finals. */
export const FLUSH_TIMEOUT_MS = 10_000;
/** Warnings come this long before the session's time or credential runs out (or at once if less is left). */
export const WARNING_LEAD_MS = 60_000;
/** Frames the session holds while its `start` is on its way, before the session is failed. */
export const MAX_HELD_BYTES = 8 * 1024 * 1024;
/** setTimeout's largest delay; limits further away than this are not scheduled (they cannot fire first). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export function to(state: SessionState, ...commands: SessionCommand[]): Transition {
  return { state, commands };
}

/** The same state and nothing to do: the event means nothing here. */
export function stay(state: SessionState): Transition {
  return { state, commands: [] };
}

/** An `error` event, fatal as the protocol's table says the code is. */
export function sendError(code: RealtimeErrorCode, message: string): SessionCommand {
  return { type: 'send', event: { type: 'error', code, message, fatal: REALTIME_ERROR_OUTCOMES[code].fatal } };
}

/** The answer to a frame too large to read, whatever the state. */
export function frameTooLarge(config: SessionMachineConfig, byteLength: number): SessionCommand {
  return sendError(
    'frame_too_large',
    `Frames may be at most ${config.limits.maxFrameBytes} bytes; this one had ${byteLength} and was dropped.`,
  );
}

/** How a session ends: its reason and close code, and the fatal error sent first (none after `stop`). */
export interface End {
  reason: RealtimeEndReason;
  closeCode: number;
  error?: { code: RealtimeFatalErrorCode; message: string };
}

/** The ending a fatal error calls for, by the protocol's table. */
export function fatal(code: RealtimeFatalErrorCode, message: string): End {
  const { endReason, closeCode } = REALTIME_ERROR_OUTCOMES[code];
  return { reason: endReason, closeCode, error: { code, message } };
}

export const STOPPED: End = { reason: 'stopped', closeCode: REALTIME_CLOSE_CODES.normal };

/** The session's audio so far, in ms of its clock. */
export function audioMsOf(transcript: Pick<Transcript, 'format' | 'framesReceived'>): number {
  return Math.round((transcript.framesReceived * 1000) / transcript.format.sampleRate);
}

/** A recognizer's failure as the socket names it: an unexplained failure is ours. */
export function realtimeCodeOf(code: RecognizerErrorCode): RealtimeFatalErrorCode {
  return code === 'recognizer_failed' ? 'internal_error' : code;
}
