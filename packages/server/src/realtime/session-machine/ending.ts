/**
 * How a session ends. One that had not started just closes. A started one ends its recognizer
 * streams, stores their last finals (sent too while the socket is open), stores its own record,
 * and only then, after `stop` or a fatal error, sends `ended` and closes.
 */
import { REALTIME_CLOSE_CODES } from '@chartwright/protocol';

import { audioMsOf, FLUSH_TIMEOUT_MS, sendError, stay, to, type End } from './common.js';
import { committedOf } from './transcript.js';
import type { EndingPath, SessionCommand, SessionState, Streaming, Transcript, Transition } from './types.js';

type Ending = Extract<SessionState, { kind: 'ending' }>;

/** Streams opened for a start that is abandoned now. */
function abandonedStreams(state: SessionState): SessionCommand[] {
  return state.kind === 'starting' && state.step.name === 'storing'
    ? [{ type: 'end_streams', streams: state.step.streams }]
    : [];
}

function transcriptOf(streaming: Streaming): Transcript {
  const { format, framesReceived, segments, lastFinalEndMs, streamOffsetMs, committedMs, cepstralMeans, unstored } =
    streaming;
  const { transcribedMs, storageFailed, voicesBefore } = streaming;
  return {
    format,
    framesReceived,
    segments,
    voicesBefore,
    lastFinalEndMs,
    streamOffsetMs,
    committedMs,
    cepstralMeans,
    unstored,
    transcribedMs,
    storageFailed,
  };
}

function flushing(
  state: Extract<SessionState, { kind: 'streaming' }>,
  ending: EndingPath,
  first: SessionCommand[],
): Transition {
  return to(
    {
      kind: 'ending',
      identity: state.identity,
      transcript: transcriptOf(state.streaming),
      ending,
      phase: 'flushing',
      flushed: false,
    },
    { type: 'clear_timers' },
    ...first,
    { type: 'flush_streams' },
    { type: 'schedule', timer: { name: 'flush' }, ms: FLUSH_TIMEOUT_MS },
  );
}

/** Ends the session: the fatal error first (none after `stop`), then as far as it got calls for. */
export function finish(state: SessionState, end: End): Transition {
  const error = end.error === undefined ? [] : [sendError(end.error.code, end.error.message)];
  switch (state.kind) {
    case 'awaiting_start':
    case 'starting':
      return to(
        { kind: 'closed', identity: state.identity },
        { type: 'clear_timers' },
        ...error,
        { type: 'close', code: end.closeCode, reason: end.reason },
        ...abandonedStreams(state),
        { type: 'settled' },
      );
    case 'streaming':
      return flushing(state, { path: 'finish', reason: end.reason, closeCode: end.closeCode }, error);
    case 'ending':
    case 'closed':
      return stay(state);
  }
}

/** The server is shutting down: `ended` and 1001 at once; the last finals are stored (not sent) for a resume. */
export function shutdown(state: SessionState): Transition {
  const close: SessionCommand = { type: 'close', code: REALTIME_CLOSE_CODES.goingAway, reason: 'server_shutdown' };
  switch (state.kind) {
    case 'awaiting_start':
    case 'starting':
      return to(
        { kind: 'closed', identity: state.identity },
        { type: 'clear_timers' },
        close,
        ...abandonedStreams(state),
        { type: 'settled' },
      );
    case 'streaming': {
      const { sessionId } = state.identity;
      const { streaming } = state;
      const ended: SessionCommand = {
        type: 'send',
        event: {
          type: 'ended',
          sessionId,
          reason: 'server_shutdown',
          audioMs: audioMsOf(streaming),
          segments: streaming.segments,
        },
      };
      return flushing(state, { path: 'shutdown' }, [ended, close]);
    }
    case 'ending':
    case 'closed':
      return stay(state);
  }
}

/** The socket closed: a started session stores its last finals (not sent), so a resume replays them. */
export function socketClosed(state: SessionState): Transition {
  switch (state.kind) {
    case 'awaiting_start':
    case 'starting':
      return to({ kind: 'closed', identity: state.identity }, { type: 'clear_timers' }, ...abandonedStreams(state), {
        type: 'settled',
      });
    case 'streaming':
      return flushing(state, { path: 'interrupted' }, []);
    case 'ending':
    case 'closed':
      return stay(state);
  }
}

/** The streams ended (`flushed`), or the flush timed out: what they emitted so far is all there is. */
export function flushDone(state: SessionState, flushed: boolean): Transition {
  if (state.kind !== 'ending' || state.phase !== 'flushing') return stay(state);
  return to(
    { ...state, phase: 'draining', flushed },
    ...(flushed ? [{ type: 'clear_timer', name: 'flush' } as const] : []),
    { type: 'drain_finals' },
  );
}

/** The last finals are stored: the audio counts as transcribed only if the streams flushed it all. */
export function drained(state: SessionState): Transition {
  if (state.kind !== 'ending' || state.phase !== 'draining') return stay(state);
  const complete = state.flushed && !state.transcript.storageFailed;
  const transcript = complete ? { ...state.transcript, transcribedMs: audioMsOf(state.transcript) } : state.transcript;
  const { sessionId } = state.identity;
  const { transcribedMs } = transcript;
  // A final that could not be stored is not committed: a resume decodes its audio again.
  const committedMs = committedOf(transcript);
  const { cepstralMeans } = transcript;
  const ending = state.ending;
  const record: SessionCommand =
    ending.path === 'interrupted'
      ? { type: 'record_interruption', sessionId, transcribedMs, committedMs, cepstralMeans }
      : {
          type: 'record_end',
          sessionId,
          reason: ending.path === 'finish' ? ending.reason : 'server_shutdown',
          transcribedMs,
          committedMs,
          cepstralMeans,
        };
  return to({ ...state, transcript, phase: 'recording' }, record);
}

/** The session's record is stored: a finished session says `ended` and closes. */
export function recorded(state: SessionState): Transition {
  if (state.kind !== 'ending' || state.phase !== 'recording') return stay(state);
  const closed: SessionState = { kind: 'closed', identity: state.identity };
  const totals = totalsOf(state);
  switch (state.ending.path) {
    case 'finish': {
      const { reason, closeCode } = state.ending;
      const { sessionId, audioMs, segments } = totals;
      return to(
        closed,
        { type: 'send', event: { type: 'ended', sessionId, reason, audioMs, segments } },
        {
          type: 'log',
          level: 'info',
          message: 'realtime session ended',
          fields: { sessionId, reason, audioMs, segments },
        },
        { type: 'close', code: closeCode, reason },
        { type: 'settled' },
      );
    }
    case 'shutdown':
      return to(closed, { type: 'settled' });
    case 'interrupted':
      return to(
        closed,
        { type: 'log', level: 'info', message: 'realtime session lost its socket', fields: totals },
        { type: 'settled' },
      );
  }
}

function totalsOf(state: Ending): { sessionId: string; audioMs: number; segments: number } {
  return {
    sessionId: state.identity.sessionId,
    audioMs: audioMsOf(state.transcript),
    segments: state.transcript.segments,
  };
}
