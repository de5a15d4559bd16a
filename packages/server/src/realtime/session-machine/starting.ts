/**
 * From the socket's first frame to `started`: the `start` message, then (for a resume) the stored
 * session looked up and claimed, the recognizer checked, its streams opened, the session stored.
 * A refusal on the way is not fatal: the socket may send another `start`.
 */
import type { RealtimeClientMessage, StartMessage } from '@chartwright/protocol';

import {
  servesLanguage,
  type RecognizerErrorCode,
  type RecognizerStatus,
  type RecognizerStream,
} from '../../asr/recognizer.js';
import { fatal, frameTooLarge, realtimeCodeOf, sendError, stay, to } from './common.js';
import { finish } from './ending.js';
import type { Frame, ResumePoint, SessionMachineConfig, SessionState, Transition } from './types.js';

type AwaitingState = Extract<SessionState, { kind: 'awaiting_start' }>;

function begin(config: SessionMachineConfig, state: AwaitingState, start: StartMessage): Transition {
  const { languages } = config;
  if (languages !== 'any' && !servesLanguage({ languages }, start.language)) {
    return to(
      state,
      sendError(
        'unsupported_language',
        `language: this service transcribes ${languages.join(', ')} only; got ${start.language}.`,
      ),
    );
  }
  const starting = {
    kind: 'starting',
    identity: state.identity,
    start,
    held: [],
    heldBytes: 0,
    slowStartWaits: 0,
  } as const;
  return start.resume === undefined
    ? to({ ...starting, step: { name: 'checking', resume: undefined } }, { type: 'check_recognizer' })
    : to({ ...starting, step: { name: 'finding' } }, { type: 'find_resume', resume: start.resume });
}

function message(config: SessionMachineConfig, state: AwaitingState, received: RealtimeClientMessage): Transition {
  switch (received.type) {
    case 'start':
      return begin(config, state, received);
    case 'keepalive':
      return stay(state);
    case 'finalize':
    case 'pause':
    case 'resume':
    case 'stop':
      return to(state, sendError('invalid_message', `type: ${received.type} is only valid after start.`));
  }
}

export function awaitingFrame(config: SessionMachineConfig, state: AwaitingState, frame: Frame): Transition {
  switch (frame.kind) {
    case 'oversized':
      return to(state, frameTooLarge(config, frame.byteLength));
    case 'audio':
      return to(
        state,
        sendError('audio_before_start', 'Send the start message, with the audio format, before any audio.'),
      );
    case 'text':
      return frame.parsed.ok
        ? message(config, state, frame.parsed.message)
        : to(state, sendError(frame.parsed.code, frame.parsed.message));
  }
}

/** A refused resume: the socket is back to awaiting a `start`, under its own id again. */
export function resumeRefused(state: SessionState, refusal: string): Transition {
  if (state.kind !== 'starting' || (state.step.name !== 'finding' && state.step.name !== 'loading')) {
    return stay(state);
  }
  const sessionId = state.step.name === 'loading' ? state.step.unclaimedId : state.identity.sessionId;
  return to(
    { kind: 'awaiting_start', identity: { ...state.identity, sessionId } },
    sendError('resume_failed', refusal),
  );
}

/**
 * The session a resume names, found and authorized. Taking its id claims it: from here on
 * another socket's resume of it is refused, as this one is while another socket carries it.
 */
export function resumeFound(state: SessionState, sessionId: string, heldElsewhere: boolean): Transition {
  if (state.kind !== 'starting' || state.step.name !== 'finding' || state.start.resume === undefined) {
    return stay(state);
  }
  if (heldElsewhere) {
    return resumeRefused(state, 'The session is still open on another socket; retry once that socket has closed.');
  }
  return to(
    {
      ...state,
      identity: { ...state.identity, sessionId },
      step: { name: 'loading', unclaimedId: state.identity.sessionId },
    },
    { type: 'load_resume', sessionId, resume: state.start.resume, format: state.start.audio },
  );
}

export function resumeLoaded(state: SessionState, point: ResumePoint): Transition {
  if (state.kind !== 'starting' || state.step.name !== 'loading') return stay(state);
  return to(
    {
      ...state,
      identity: { ...state.identity, resumeToken: point.resumeToken },
      step: { name: 'checking', resume: point },
    },
    { type: 'check_recognizer' },
  );
}

export function recognizerChecked(
  config: SessionMachineConfig,
  state: SessionState,
  status: RecognizerStatus,
  now: number,
): Transition {
  if (state.kind !== 'starting' || state.step.name !== 'checking') return stay(state);
  if (!status.available) {
    return finish(
      state,
      fatal(
        'recognizer_unavailable',
        `The speech recognizer is unavailable (${status.reason}); install it with: ${status.installHint}`,
      ),
    );
  }
  const expiresAt = config.principal.expiresAt;
  if (expiresAt !== null && expiresAt <= now) {
    return finish(state, fatal('credential_expired', 'The credential that opened this socket has expired.'));
  }
  return to(
    { ...state, step: { name: 'opening', resume: state.step.resume } },
    { type: 'open_streams', start: state.start, cepstralMeans: state.step.resume?.cepstralMeans ?? [] },
  );
}

/** Streams for the session; ones that open after it closed or ended are ended at once. */
export function streamsOpened(state: SessionState, streams: readonly RecognizerStream[], openedAt: number): Transition {
  if (state.kind !== 'starting' || state.step.name !== 'opening') return to(state, { type: 'end_streams', streams });
  const resume = state.step.resume;
  return to(
    { ...state, step: { name: 'storing', resume, streams, openedAt } },
    {
      type: 'store_session',
      identity: state.identity,
      start: state.start,
      resumed: resume === undefined ? undefined : { provisional: resume.provisional },
      at: openedAt,
    },
  );
}

export function streamsFailed(state: SessionState, code: RecognizerErrorCode, message: string): Transition {
  if (state.kind !== 'starting' || state.step.name !== 'opening') return stay(state);
  return finish(state, fatal(realtimeCodeOf(code), message));
}
