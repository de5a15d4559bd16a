/**
 * A client realtime session as a state machine: what it knows in each state, the events that move
 * it (the socket's, the credential source's, the timers' and the application's calls) and the
 * commands its adapters carry out. Pure data: no socket, no timer, no clock of its own.
 */
import type { RealtimeClientMessageInput, RealtimeServerEvent } from '@chartwright/protocol';

import type { ChartwrightError } from '../../errors.js';
import type { RealtimeError } from '../errors.js';
import type {
  RealtimeEndedEvent,
  RealtimeReconnectReason,
  RealtimeSessionEvents,
  RealtimeStartedEvent,
} from '../events.js';
import type { RealtimeSessionConfig } from '../session-config.js';

export interface ClientMachineConfig extends Pick<
  RealtimeSessionConfig,
  'format' | 'language' | 'interimResults' | 'vocabulary' | 'tokenRefreshMarginMs' | 'maxReconnectAttempts'
> {
  /** The credential source can give another credential (a fixed token cannot be replaced). */
  renewable: boolean;
  /** The source's tokens expire and it can fetch the next one ahead of time (a token callback). */
  expiring: boolean;
  /** How long to wait before retry number `retry` (0 for the first). */
  backoffMs: (retry: number) => number;
}

/** What the session has established, across sockets. */
export interface Progress {
  /** The service's `started` (the latest socket's, after a resume); undefined until it started. */
  started: RealtimeStartedEvent | undefined;
  lastAckedAudioMs: number;
  lastSegmentId: string | undefined;
  paused: boolean;
  /** `stop()` was called: the session takes no more audio and sends `stop` on every socket it opens. */
  stopping: boolean;
  /** The credential the service last refused at the upgrade, and how: offering it again cannot help. */
  refused: { credential: string; error: ChartwrightError } | undefined;
}

/** One socket of the session. */
export interface SocketRecord {
  id: number;
  /** Its last fatal `error` event, read when it closes. */
  error: RealtimeError | undefined;
  /** Its `ended` event, read when it closes. */
  ended: RealtimeEndedEvent | undefined;
}

export type AttemptStep =
  | { name: 'credential' }
  | { name: 'opening'; credential: string; expiresAtMs: number | undefined }
  /** The socket is open and `start` sent: its answer decides the attempt. */
  | { name: 'starting'; socket: SocketRecord; expiresAtMs: number | undefined }
  /** Waiting out the backoff before the next attempt. */
  | { name: 'waiting' }
  /** A token refresh: the old socket is closing (the service stores its last segments) before the first attempt. */
  | { name: 'handover'; socket: SocketRecord };

/** Sockets opened until one starts (or resumes) the session. */
export interface Attempt {
  /** Why the session reconnects; undefined for its first connection. */
  reason: RealtimeReconnectReason | undefined;
  /** This attempt's number, from 1. */
  number: number;
  /** The attempts it may take in all. */
  limit: number;
  step: AttemptStep;
}

export type ClientState =
  | { kind: 'connecting'; progress: Progress; attempt: Attempt }
  | { kind: 'open'; progress: Progress; socket: SocketRecord }
  | { kind: 'reconnecting'; progress: Progress; attempt: Attempt }
  | { kind: 'closed'; progress: Progress; ended: RealtimeEndedEvent | undefined };

export type ClientTimer = 'retry' | 'keepalive' | 'refresh' | 'handover';

export type ClientEvent =
  | { type: 'credential'; value: string; expiresAtMs: number | undefined }
  | { type: 'credential_failed'; error: unknown }
  | { type: 'socket_opened'; socket: number }
  /** The service refused the upgrade, and its HTTP answer could be read (`ws`). */
  | { type: 'socket_refused'; status: number; error: ChartwrightError }
  /** The socket did not open, and why cannot be seen (browsers hide the HTTP answer). */
  | { type: 'socket_unreachable'; cause: unknown }
  /** Opening a socket threw (no WebSocket to open one with): not something another attempt fixes. */
  | { type: 'socket_failed'; error: unknown }
  | { type: 'server_event'; socket: number; event: RealtimeServerEvent; at: number }
  | { type: 'socket_closed'; socket: number; code: number; reason: string }
  | { type: 'timer'; timer: Exclude<ClientTimer, 'keepalive'> }
  /** The keepalive interval passed; `quiet` when nothing was sent on the socket meanwhile. */
  | { type: 'keepalive_due'; quiet: boolean }
  | { type: 'refreshed' }
  | { type: 'refresh_failed'; error: unknown }
  | { type: 'send'; bytes: Uint8Array }
  | { type: 'finalize' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'stop' }
  | { type: 'close' };

export type Emit = {
  [K in keyof RealtimeSessionEvents]: { type: 'emit'; name: K; event: RealtimeSessionEvents[K] };
}[keyof RealtimeSessionEvents];

export type ClientCommand =
  | { type: 'get_credential' }
  | { type: 'invalidate_credential' }
  /** Fetches the next credential ahead of expiry: `refreshed` or `refresh_failed`. */
  | { type: 'refresh_credential' }
  | { type: 'open_socket'; credential: string }
  | { type: 'send_message'; socket: number; message: RealtimeClientMessageInput }
  /** Keeps a copy of the audio until it is acknowledged (throwing when the buffer is full), and writes that copy. */
  | { type: 'keep_audio'; bytes: Uint8Array; write: { socket: number; maxFrameBytes: number } | undefined }
  /** Writes again the kept audio after `fromMs`. */
  | { type: 'resend_audio'; socket: number; fromMs: number; maxFrameBytes: number }
  | { type: 'acknowledge_audio'; audioMs: number }
  | { type: 'close_socket'; socket: number; code: number; reason: string }
  /** Replaces the timer of that name; `repeat` fires it every `ms` until cleared. */
  | { type: 'schedule'; timer: ClientTimer; ms: number; repeat?: true }
  | { type: 'clear_timer'; timer: ClientTimer }
  | { type: 'clear_timers' }
  | Emit
  | { type: 'log'; level: 'debug' | 'info'; message: string; fields?: Record<string, unknown> }
  /** `open()` resolves. */
  | { type: 'opened' }
  /** `open()` rejects with `error`. */
  | { type: 'open_failed'; error: unknown }
  /** `stop()` resolves with the service's `ended`. */
  | { type: 'stopped'; ended: RealtimeEndedEvent }
  | { type: 'stop_failed'; error: RealtimeError }
  /** The application's call is refused: it throws `error`. */
  | { type: 'refuse'; error: RealtimeError };

export interface ClientTransition {
  state: ClientState;
  commands: ClientCommand[];
}
