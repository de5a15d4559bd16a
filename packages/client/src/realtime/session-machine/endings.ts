/**
 * How a session's sockets end: the session closes for good, or it opens a new socket and resumes
 * (after a lost socket, a revoked credential, or to move to a fresh token ahead of expiry).
 */
import {
  isResumableEndReason,
  realtimeCloseOutcome,
  realtimeErrorOutcome,
  REALTIME_CLOSE_CODES,
} from '@chartwright/protocol';

import { RealtimeError } from '../errors.js';
import type { RealtimeReconnectReason } from '../events.js';
import { startConnecting } from './attempts.js';
import { emit, MIN_REFRESH_DELAY_MS, stay, followedBy, to } from './common.js';
import { finish } from './finish.js';
import type { ClientCommand, ClientMachineConfig, ClientState, ClientTransition, SocketRecord } from './types.js';

/** How long a socket being replaced may take to close before the session moves on. */
const HANDOVER_CLOSE_MS = 5_000;

const stopTimers: ClientCommand[] = [
  { type: 'clear_timer', timer: 'keepalive' },
  { type: 'clear_timer', timer: 'refresh' },
];

/** Opens a new socket to resume the session; `lost` is the socket it had. */
export function reconnect(
  config: ClientMachineConfig,
  state: ClientState,
  reason: RealtimeReconnectReason,
  lost: SocketRecord,
): ClientTransition {
  return followedBy(
    to(
      state,
      {
        type: 'log',
        level: 'info',
        message: 'realtime: socket lost, resuming',
        fields: { reason, code: lost.error?.code },
      },
      emit('reconnecting', { reason, attempt: 1, delayMs: 0 }),
    ),
    startConnecting(config, state.progress, reason),
  );
}

/**
 * The service closed the open socket. The session ends when the service ended it for good (after
 * `stop`, at its limit) or when another socket could not help; otherwise it resumes on a new one.
 */
export function openSocketClosed(
  config: ClientMachineConfig,
  state: Extract<ClientState, { kind: 'open' }>,
  code: number,
  reason: string,
): ClientTransition {
  const lost = state.socket;
  const { error, ended } = lost;
  const stopped = to(state, ...stopTimers);
  if (ended !== undefined && !isResumableEndReason(ended.reason)) {
    const limit = new RealtimeError('The session reached its maximum length.', 'session_limit', true);
    return followedBy(
      stopped,
      finish(state, code, reason, ended.reason === 'stopped' ? undefined : (error ?? limit), lost),
    );
  }
  const outcome = error === undefined ? undefined : realtimeErrorOutcome(error.code);
  const closeOutcome = realtimeCloseOutcome(code);
  if (closeOutcome === 'final' || (outcome?.fatal === true && !outcome.resumable)) {
    const closed = new RealtimeError(`The service closed the socket (${code}).`, 'session_closed', true);
    return followedBy(stopped, finish(state, code, reason, error ?? closed, lost));
  }
  if (closeOutcome === 'renew_credential') {
    if (!config.renewable) {
      const expired = new RealtimeError('The credential expired or was revoked.', 'credential_expired', true);
      return followedBy(stopped, finish(state, code, reason, error ?? expired, lost));
    }
    return followedBy(
      to(state, ...stopTimers, { type: 'invalidate_credential' }),
      reconnect(config, state, 'credential_expired', lost),
    );
  }
  return followedBy(stopped, reconnect(config, state, 'connection_lost', lost));
}

/** Fetches the next token ahead of expiry; an open, unstopped session moves to a socket opened with it. */
export function refreshDue(state: ClientState): ClientTransition {
  return state.kind === 'open' && !state.progress.stopping ? to(state, { type: 'refresh_credential' }) : stay(state);
}

/** The new token is here: the old socket closes (the service stores its last segments; the resume replays them). */
export function refreshed(config: ClientMachineConfig, state: ClientState): ClientTransition {
  // Read again: the session may have moved on while the callback ran.
  if (state.kind !== 'open' || state.progress.stopping) return stay(state);
  const old = state.socket;
  return to(
    {
      kind: 'reconnecting',
      progress: state.progress,
      attempt: {
        reason: 'token_refresh',
        number: 1,
        limit: config.maxReconnectAttempts,
        step: { name: 'handover', socket: old },
      },
    },
    ...stopTimers,
    { type: 'close_socket', socket: old.id, code: REALTIME_CLOSE_CODES.normal, reason: 'token refresh' },
    { type: 'schedule', timer: 'handover', ms: HANDOVER_CLOSE_MS },
  );
}

/** The current token still works until it expires; the service's close then resumes the session. */
export function refreshFailed(state: ClientState, cause: unknown): ClientTransition {
  if (state.kind === 'closed') return stay(state);
  return to(
    state,
    emit('error', new RealtimeError('The token callback failed; retrying.', 'token_refresh_failed', false, { cause })),
    { type: 'schedule', timer: 'refresh', ms: MIN_REFRESH_DELAY_MS },
  );
}

/** The replaced socket closed, or took too long to: the session resumes on a new one. */
export function handedOver(config: ClientMachineConfig, state: ClientState): ClientTransition {
  if (state.kind !== 'reconnecting' || state.attempt.step.name !== 'handover') return stay(state);
  const old = state.attempt.step.socket;
  return followedBy(
    to(state, { type: 'clear_timer', timer: 'handover' }),
    reconnect(config, state, 'token_refresh', old),
  );
}
