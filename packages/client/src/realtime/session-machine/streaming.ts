/** The service's events on the session's socket, and the application's calls. */
import {
  bytesPerFrame,
  compareSegmentIds,
  REALTIME_CLOSE_CODES,
  type RealtimeServerEvent,
} from '@chartwright/protocol';

import { RealtimeError } from '../errors.js';
import { started, startRefused } from './attempts.js';
import { emit, message, socketOf, stay, to, withProgress, withSocket } from './common.js';
import { finish } from './finish.js';
import type { ClientMachineConfig, ClientState, ClientTransition } from './types.js';

export function serverEvent(
  config: ClientMachineConfig,
  state: ClientState,
  socketId: number,
  event: RealtimeServerEvent,
  at: number,
): ClientTransition {
  const socket = socketOf(state);
  if (socket?.id !== socketId) return stay(state);
  const { progress } = state;
  switch (event.type) {
    case 'started':
      return started(config, state, event, at);
    case 'ack': {
      const lastAckedAudioMs = Math.max(progress.lastAckedAudioMs, event.audioMs);
      return to(
        withProgress(state, { lastAckedAudioMs }),
        { type: 'acknowledge_audio', audioMs: lastAckedAudioMs },
        emit('ack', event),
      );
    }
    case 'final': {
      // A resume replays from lastSegmentId: only what is new passes, in the protocol's order.
      const last = progress.lastSegmentId;
      if (last !== undefined && compareSegmentIds(event.segment.id, last) <= 0) return stay(state);
      return to(withProgress(state, { lastSegmentId: event.segment.id }), emit('final', event));
    }
    case 'partial':
      return to(state, emit('partial', event));
    case 'warning':
      return to(state, emit('warning', event));
    case 'error': {
      const error = new RealtimeError(event.message, event.code, event.fatal);
      // What follows a fatal error depends on the close that comes next.
      if (error.fatal) return to(withSocket(state, { ...socket, error }));
      return state.kind === 'open' ? to(state, emit('error', error)) : startRefused(config, state, error);
    }
    case 'ended':
      return to(withSocket(state, { ...socket, ended: event }));
  }
}

/** Why the application may not send, finalize, pause or resume now. */
function refusal(state: ClientState): ClientTransition | undefined {
  if (state.kind !== 'closed' && !state.progress.stopping) return undefined;
  const error = new RealtimeError(
    state.kind === 'closed' ? 'The session is closed.' : 'The session is stopping.',
    'session_closed',
    false,
  );
  return to(state, { type: 'refuse', error });
}

/**
 * Audio is kept until the service acknowledges it (and written at once when a socket is open);
 * while paused it is dropped, as the service would.
 */
export function sendAudio(config: ClientMachineConfig, state: ClientState, bytes: Uint8Array): ClientTransition {
  const refused = refusal(state);
  if (refused !== undefined) return refused;
  const { format } = config;
  const alignment = bytesPerFrame(format);
  if (bytes.byteLength % alignment !== 0) {
    const error = new RealtimeError(
      `${format.encoding} audio with ${format.channels} channel(s) comes in multiples of ` +
        `${alignment} bytes; got ${bytes.byteLength}.`,
      'misaligned_audio',
      false,
    );
    return to(state, { type: 'refuse', error });
  }
  if (state.progress.paused || bytes.byteLength === 0) return stay(state);
  const write =
    state.kind === 'open'
      ? { socket: state.socket.id, maxFrameBytes: state.progress.started?.limits.maxFrameBytes ?? bytes.byteLength }
      : undefined;
  return to(state, { type: 'keep_audio', bytes, write });
}

/** `finalize`, `pause` and `resume` reach the service only on an open socket; a lost one's utterance ended with it. */
export function control(state: ClientState, type: 'finalize' | 'pause' | 'resume'): ClientTransition {
  const refused = refusal(state);
  if (refused !== undefined) return refused;
  if (type !== 'finalize') {
    const paused = type === 'pause';
    if (state.progress.paused === paused) return stay(state);
    const next = withProgress(state, { paused });
    return next.kind === 'open' ? message(next, { type }) : stay(next);
  }
  return state.kind === 'open' ? message(state, { type }) : stay(state);
}

/** `stop()`: sent now on an open socket, else on the next one that starts. */
export function stop(state: ClientState): ClientTransition {
  if (state.kind === 'closed') {
    return state.ended?.reason === 'stopped'
      ? to(state, { type: 'stopped', ended: state.ended })
      : to(state, { type: 'stop_failed', error: new RealtimeError('The session is closed.', 'session_closed', true) });
  }
  if (state.progress.stopping) return stay(state);
  const next = withProgress(state, { stopping: true });
  return next.kind === 'open' ? message(next, { type: 'stop' }) : stay(next);
}

/** `close()`: at once, without flushing (the service keeps the session resumable for a while). */
export function close(state: ClientState): ClientTransition {
  return finish(state, REALTIME_CLOSE_CODES.normal, 'closed by the client', undefined);
}

/** When nothing was sent for the interval the service asks for, `keepalive` keeps it from timing out. */
export function keepaliveDue(state: ClientState, quiet: boolean): ClientTransition {
  return state.kind === 'open' && quiet ? message(state, { type: 'keepalive' }) : stay(state);
}
