import type { RealtimeClientMessageInput } from '@chartwright/protocol';

import type { ClientCommand, ClientState, ClientTransition, Emit, Progress, SocketRecord } from './types.js';

/** A token is never refreshed sooner than this after a socket opened, whatever the clocks say. */
export const MIN_REFRESH_DELAY_MS = 5_000;

export function to(state: ClientState, ...commands: ClientCommand[]): ClientTransition {
  return { state, commands };
}

/** The same state and nothing to do: the event means nothing here. */
export function stay(state: ClientState): ClientTransition {
  return { state, commands: [] };
}

export function followedBy(first: ClientTransition, next: ClientTransition): ClientTransition {
  return { state: next.state, commands: [...first.commands, ...next.commands] };
}

export function emit<K extends Emit['name']>(name: K, event: Extract<Emit, { name: K }>['event']): ClientCommand {
  return { type: 'emit', name, event } as Emit;
}

type OpenState = Extract<ClientState, { kind: 'open' }>;

/** A control message on the open socket. */
export function message(state: OpenState, sent: RealtimeClientMessageInput): ClientTransition {
  return to(state, { type: 'send_message', socket: state.socket.id, message: sent });
}

/** The socket whose events count: the open one, or the one an attempt sent `start` on. */
export function socketOf(state: ClientState): SocketRecord | undefined {
  if (state.kind === 'open') return state.socket;
  if (state.kind === 'closed') return undefined;
  return state.attempt.step.name === 'starting' ? state.attempt.step.socket : undefined;
}

export function withSocket(state: ClientState, socket: SocketRecord): ClientState {
  if (state.kind === 'open') return { ...state, socket };
  if (state.kind === 'closed' || state.attempt.step.name !== 'starting') return state;
  return { ...state, attempt: { ...state.attempt, step: { ...state.attempt.step, socket } } };
}

export function withProgress<S extends ClientState>(state: S, progress: Partial<Progress>): S {
  return { ...state, progress: { ...state.progress, ...progress } };
}
