/**
 * The realtime session's state machine: `transition(config, state, event)` says what the session
 * becomes and what its adapters do. Frames are answered in the order they arrived, also those held
 * while a `start` was on its way.
 */
import { fatal, MAX_HELD_BYTES, realtimeCodeOf, stay, to } from './common.js';
import { drained, finish, flushDone, recorded, shutdown, socketClosed } from './ending.js';
import { started } from './started.js';
import {
  awaitingFrame,
  recognizerChecked,
  resumeFound,
  resumeLoaded,
  resumeRefused,
  streamsFailed,
  streamsOpened,
} from './starting.js';
import { committed, final, finalStored, partial, storageFailed, streamingFrame, streamingTimer } from './streaming.js';
import type {
  Frame,
  Identity,
  SessionCommand,
  SessionEvent,
  SessionMachineConfig,
  SessionState,
  Timer,
  Transition,
} from './types.js';

export type * from './types.js';

function then(first: Transition, next: Transition): Transition {
  return { state: next.state, commands: [...first.commands, ...next.commands] };
}

/** Any frame from the client restarts the idle timer. */
/** Idle timeouts a session still being started by the service waits through (see slowStart). */
const SLOW_START_WAITS = 3;

function idleTimer(config: SessionMachineConfig): SessionCommand {
  return { type: 'schedule', timer: { name: 'idle' }, ms: config.limits.idleTimeoutSeconds * 1000 };
}

/** A frame's answer in its turn; while a `start` is on its way, frames wait for it. */
function answer(config: SessionMachineConfig, state: SessionState, frame: Frame): Transition {
  switch (state.kind) {
    case 'awaiting_start':
      return awaitingFrame(config, state, frame);
    case 'starting':
      return stay({ ...state, held: [...state.held, frame], heldBytes: state.heldBytes + frame.byteLength });
    case 'streaming':
      return streamingFrame(config, state, frame);
    case 'ending':
    case 'closed':
      return stay(state);
  }
}

function received(config: SessionMachineConfig, state: SessionState, frame: Frame): Transition {
  if (state.kind === 'ending' || state.kind === 'closed') return stay(state);
  const touched = to(state, idleTimer(config));
  const held = state.kind === 'starting' ? state.heldBytes : 0;
  if (held + frame.byteLength > MAX_HELD_BYTES) {
    return then(
      touched,
      finish(
        state,
        fatal('recognizer_overloaded', 'Audio arrived faster than the recognizer could start; the session is closed.'),
      ),
    );
  }
  return then(touched, answer(config, state, frame));
}

function timer(config: SessionMachineConfig, state: SessionState, fired: Timer): Transition {
  switch (fired.name) {
    case 'idle':
      if (state.kind === 'starting') return slowStart(config, state);
      return finish(
        state,
        fatal(
          'idle_timeout',
          `Nothing arrived for ${config.limits.idleTimeoutSeconds} s; send keepalive while there is no audio.`,
        ),
      );
    case 'flush':
      return flushDone(state, false);
    case 'session_warning':
    case 'session_limit':
    case 'credential_check':
    case 'credential_warning':
    case 'credential_expiry':
      return state.kind === 'streaming' ? streamingTimer(config, state, fired) : stay(state);
  }
}

/**
 * Many sessions opened at once wait for decoders to load one after another per worker (16 at once
 * on two busy cores: up to 30 s). The client waits for `started` meanwhile, so its silence is not
 * idleness: the wait goes on, up to `SLOW_START_WAITS` more idle timeouts, and then the session
 * ends as the service's failure, which the client may retry.
 */
function slowStart(config: SessionMachineConfig, state: Extract<SessionState, { kind: 'starting' }>): Transition {
  if (state.slowStartWaits < SLOW_START_WAITS) {
    return to({ ...state, slowStartWaits: state.slowStartWaits + 1 }, idleTimer(config));
  }
  const seconds = config.limits.idleTimeoutSeconds * (SLOW_START_WAITS + 1);
  return finish(
    state,
    fatal('recognizer_overloaded', `The recognizer could not start this session within ${seconds} s; retry later.`),
  );
}

/** An adapter's step failed: logged, and the session (if still going) ends as our failure. */
function failed(state: SessionState, error: unknown): Transition {
  const log = to(state, {
    type: 'log',
    level: 'error',
    message: 'realtime message handling failed',
    fields: { err: error, sessionId: state.identity.sessionId },
  });
  if (state.kind === 'ending' || state.kind === 'closed') return log;
  return then(log, finish(state, fatal('internal_error', 'Something went wrong on our side.')));
}

function step(config: SessionMachineConfig, state: SessionState, event: SessionEvent): Transition {
  switch (event.type) {
    case 'frame':
      return received(config, state, event.frame);
    case 'resume_found':
      return resumeFound(state, event.sessionId, event.heldElsewhere);
    case 'resume_refused':
      return resumeRefused(state, event.message);
    case 'resume_loaded':
      return resumeLoaded(state, event.point);
    case 'recognizer_checked':
      return recognizerChecked(config, state, event.status, event.at);
    case 'streams_opened':
      return streamsOpened(state, event.streams, event.at);
    case 'streams_failed':
      return streamsFailed(state, event.code, event.message);
    case 'session_stored':
      return state.kind === 'starting' && state.step.name === 'storing'
        ? started(config, state, state.step, event.at)
        : stay(state);
    case 'failed':
      return failed(state, event.error);
    case 'recognizer_partial':
      return partial(state, event.channel, event.text);
    case 'recognizer_final':
      return final(state, event.channel, event.final);
    case 'recognizer_committed':
      return committed(state, event.channel, event.ms);
    case 'final_stored':
      return finalStored(state, event.seq);
    case 'recognizer_error':
      return state.kind === 'streaming' ? finish(state, fatal(realtimeCodeOf(event.code), event.message)) : stay(state);
    case 'timer':
      return timer(config, state, event.timer);
    case 'credential_revoked':
      return state.kind === 'streaming'
        ? finish(state, fatal('credential_expired', 'The credential that opened this socket was revoked or expired.'))
        : stay(state);
    case 'storage_failed':
      return storageFailed(state);
    case 'flushed':
      return flushDone(state, true);
    case 'drained':
      return drained(state);
    case 'recorded':
      return recorded(state);
    case 'socket_closed':
      return socketClosed(state);
    case 'shutdown':
      return shutdown(state);
  }
}

/** A new socket's session: awaiting its `start`, with the idle timer running from the upgrade. */
export function initialSession(config: SessionMachineConfig, identity: Identity): Transition {
  return to({ kind: 'awaiting_start', identity }, idleTimer(config));
}

/** What `event` makes of the session, and what its adapters are to do, in order. */
export function transition(config: SessionMachineConfig, state: SessionState, event: SessionEvent): Transition {
  const result = step(config, state, event);
  // Once a start is settled, the frames it held are answered as if they arrived now.
  if (state.kind !== 'starting' || result.state.kind === 'starting') return result;
  return state.held.reduce((sofar, frame) => then(sofar, answer(config, sofar.state, frame)), result);
}
