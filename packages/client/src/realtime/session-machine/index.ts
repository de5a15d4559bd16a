/**
 * The client realtime session's state machine: `transition(config, state, event)` says what the
 * session becomes and what its adapters (socket, timers, credentials, audio buffer) do, in order.
 */
import {
  credentialFailed,
  credentialGot,
  retryDue,
  socketFailed,
  socketOpened,
  socketRefused,
  socketUnreachable,
  startConnecting,
  startingSocketClosed,
} from './attempts.js';
import { stay } from './common.js';
import { handedOver, openSocketClosed, refreshDue, refreshed, refreshFailed } from './endings.js';
import { close, control, keepaliveDue, sendAudio, serverEvent, stop } from './streaming.js';
import type { ClientEvent, ClientMachineConfig, ClientState, ClientTransition } from './types.js';

export type * from './types.js';

const NOTHING_YET = {
  started: undefined,
  lastAckedAudioMs: 0,
  lastSegmentId: undefined,
  paused: false,
  stopping: false,
  refused: undefined,
} as const;

/** A new session: its first connection, which `open()` sets going with these commands. */
export function initialClient(config: ClientMachineConfig): ClientTransition {
  return startConnecting(config, NOTHING_YET, undefined);
}

function socketClosed(config: ClientMachineConfig, state: ClientState, socket: number, code: number, reason: string) {
  if (state.kind === 'open')
    return state.socket.id === socket ? openSocketClosed(config, state, code, reason) : stay(state);
  if (state.kind === 'closed') return stay(state);
  const { step } = state.attempt;
  if (step.name === 'starting' && step.socket.id === socket) return startingSocketClosed(config, state, code);
  if (step.name === 'handover' && step.socket.id === socket) return handedOver(config, state);
  return stay(state);
}

function timer(config: ClientMachineConfig, state: ClientState, fired: 'retry' | 'refresh' | 'handover') {
  switch (fired) {
    case 'retry':
      return retryDue(state);
    case 'refresh':
      return refreshDue(state);
    case 'handover':
      return handedOver(config, state);
  }
}

export function transition(config: ClientMachineConfig, state: ClientState, event: ClientEvent): ClientTransition {
  switch (event.type) {
    case 'credential':
      return credentialGot(config, state, event.value, event.expiresAtMs);
    case 'credential_failed':
      return credentialFailed(config, state, event.error);
    case 'socket_opened':
      return socketOpened(config, state, event.socket);
    case 'socket_refused':
      return socketRefused(config, state, event.status, event.error);
    case 'socket_unreachable':
      return socketUnreachable(config, state, event.cause);
    case 'socket_failed':
      return socketFailed(state, event.error);
    case 'server_event':
      return serverEvent(config, state, event.socket, event.event, event.at);
    case 'socket_closed':
      return socketClosed(config, state, event.socket, event.code, event.reason);
    case 'timer':
      return timer(config, state, event.timer);
    case 'keepalive_due':
      return keepaliveDue(state, event.quiet);
    case 'refreshed':
      return refreshed(config, state);
    case 'refresh_failed':
      return refreshFailed(state, event.error);
    case 'send':
      return sendAudio(config, state, event.bytes);
    case 'finalize':
    case 'pause':
    case 'resume':
      return control(state, event.type);
    case 'stop':
      return stop(state);
    case 'close':
      return close(state);
  }
}
