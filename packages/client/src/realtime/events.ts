import type { RealtimeServerEvent } from '@chartwright/protocol';

import type { ChartwrightError } from '../errors.js';
import type { RealtimeError } from './errors.js';

type ServerEventMap = { [E in RealtimeServerEvent as E['type']]: E };

export type RealtimeStartedEvent = ServerEventMap['started'];
export type RealtimePartialEvent = ServerEventMap['partial'];
export type RealtimeFinalEvent = ServerEventMap['final'];
export type RealtimeAckEvent = ServerEventMap['ack'];
export type RealtimeWarningEvent = ServerEventMap['warning'];
export type RealtimeEndedEvent = ServerEventMap['ended'];

/** Why the session opens a new socket. */
export type RealtimeReconnectReason =
  /** The socket closed without `stop` (network, the service restarting, a recognizer crash…). */
  | 'connection_lost'
  /** The token is about to expire: the session moves to a new socket opened with a fresh one. */
  | 'token_refresh'
  /** The service ended the socket because its credential expired or was revoked. */
  | 'credential_expired';

export interface RealtimeReconnectingEvent {
  reason: RealtimeReconnectReason;
  /** 1 for the first attempt after the socket was lost. */
  attempt: number;
  /** How long the session waits before this attempt. */
  delayMs: number;
}

/**
 * The session's first connection failed and is tried again: what an application shows while a
 * start waits (a service at capacity refuses for a while before it has room).
 */
export interface RealtimeRetryingEvent {
  /** The attempt about to be made: 2 for the first retry. */
  attempt: number;
  /** Attempts in all before `open()` gives up (`maxReconnectAttempts` + 1). */
  of: number;
  /** How long the session waits before this attempt. */
  delayMs: number;
  /** Why the last attempt failed (`at_capacity`, `recognizer_unavailable`, `service_unavailable`…). */
  error: ChartwrightError;
}

export interface RealtimeReconnectedEvent {
  reason: RealtimeReconnectReason;
  /** Attempts it took. */
  attempts: number;
  sessionId: string;
}

export interface RealtimeCloseEvent {
  /** The last socket's close code (`REALTIME_CLOSE_CODES`). */
  code: number;
  reason: string;
  /** The service's totals, when it ended the session (always after `stop()`). */
  ended: RealtimeEndedEvent | undefined;
  /** Why the session failed, when it did (also emitted as a fatal `error`). */
  error: RealtimeError | undefined;
}

/**
 * The session's events: the service's events by `type` (`started` and `ended` once per session,
 * however often it reconnects; every `final` once, in order), with `error` as a `RealtimeError`,
 * plus the client's own `close`, `retrying`, `reconnecting` and `reconnected`.
 */
export type RealtimeSessionEvents = Omit<ServerEventMap, 'error'> & {
  /** A problem the session carries on after (`fatal: false`), or the one that ended it (`fatal: true`). */
  error: RealtimeError;
  /** The session is over: after `stop()`, `close()`, or a fatal error. Emitted once. */
  close: RealtimeCloseEvent;
  /** Before the session starts, so `connect()` passes it to its `onRetrying` option. */
  retrying: RealtimeRetryingEvent;
  reconnecting: RealtimeReconnectingEvent;
  reconnected: RealtimeReconnectedEvent;
};
