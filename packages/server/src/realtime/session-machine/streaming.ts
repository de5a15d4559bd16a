/** A started session: audio in, transcript out, and the limits that end it. */
import { bytesPerFrame, framesIn, type RealtimeClientMessage } from '@chartwright/protocol';

import type { FinalEvent } from '../../asr/recognizer.js';
import { ACK_INTERVAL_MS, audioMsOf, fatal, frameTooLarge, sendError, stay, STOPPED, to } from './common.js';
import { finish } from './ending.js';
import { addFinal, commit, committedOf } from './transcript.js';
import type {
  Frame,
  SessionCommand,
  SessionMachineConfig,
  SessionState,
  Streaming,
  Timer,
  Transcript,
  Transition,
} from './types.js';

type StreamingState = Extract<SessionState, { kind: 'streaming' }>;

function withStreaming(state: StreamingState, streaming: Streaming, ...commands: SessionCommand[]): Transition {
  return to({ ...state, streaming }, ...commands);
}

/**
 * The `ack` due when the committed position (the lowest channel's, never past the audio received)
 * has moved on by at least `minStepMs` since the last one: the client may drop audio before it,
 * and keeps the open utterances after it to resend if the socket is lost.
 */
function acknowledge(streaming: Streaming, minStepMs: number): { streaming: Streaming; commands: SessionCommand[] } {
  const ackMs = Math.min(audioMsOf(streaming), ...committedOf(streaming));
  if (ackMs <= streaming.ackedMs || ackMs - streaming.ackedMs < minStepMs) return { streaming, commands: [] };
  return {
    streaming: { ...streaming, ackedMs: ackMs },
    commands: [{ type: 'send', event: { type: 'ack', audioMs: ackMs } }],
  };
}

/**
 * Drops misaligned audio (telling the client once per burst of it) and, while paused, all of it;
 * counts the rest, and at each 500 ms of it acknowledges how far the audio is committed, when that
 * moved on.
 */
function audio(state: StreamingState, data: Uint8Array): Transition {
  const { format } = state.streaming;
  const frames = framesIn(format, data.byteLength);
  if (frames === undefined) {
    if (state.streaming.misalignedReported) return stay(state);
    return withStreaming(
      state,
      { ...state.streaming, misalignedReported: true },
      sendError(
        'misaligned_audio',
        `${format.encoding} audio with ${format.channels} channel(s) comes in multiples of ` +
          `${bytesPerFrame(format)} bytes; this frame had ${data.byteLength} and was dropped ` +
          '(so are the misaligned frames after it, without another error, until an aligned one comes).',
      ),
    );
  }
  // An aligned frame ends the burst: the next misaligned one is reported again.
  const streaming = state.streaming.misalignedReported
    ? { ...state.streaming, misalignedReported: false }
    : state.streaming;
  if (streaming.paused || frames === 0) {
    return streaming === state.streaming ? stay(state) : withStreaming(state, streaming);
  }
  const commands: SessionCommand[] = [];
  // After a resume, the resent audio a channel's recognizer already transcribed is counted, not decoded again.
  const skip = streaming.skipUntilFrames.map((until) =>
    Math.max(0, Math.min(frames, until - streaming.framesReceived)),
  );
  if (skip.some((skipped) => skipped < frames)) commands.push({ type: 'write_audio', format, data, skip });
  const counted: Streaming = { ...streaming, framesReceived: streaming.framesReceived + frames };
  const due = Math.floor(audioMsOf(counted) / ACK_INTERVAL_MS);
  if (due <= counted.acked) return withStreaming(state, counted, ...commands);
  const acked = acknowledge({ ...counted, acked: due }, 0);
  return withStreaming(state, acked.streaming, ...commands, ...acked.commands);
}

function message(state: StreamingState, received: RealtimeClientMessage): Transition {
  switch (received.type) {
    case 'start':
      return to(state, sendError('already_started', 'This session has already started; send start once per socket.'));
    case 'keepalive':
      return stay(state);
    case 'finalize':
      return to(state, { type: 'finalize_streams' });
    case 'pause':
      return withStreaming(state, { ...state.streaming, paused: true }, { type: 'finalize_streams' });
    case 'resume':
      return withStreaming(state, { ...state.streaming, paused: false });
    case 'stop':
      return finish(state, STOPPED);
  }
}

export function streamingFrame(config: SessionMachineConfig, state: StreamingState, frame: Frame): Transition {
  switch (frame.kind) {
    case 'oversized':
      return to(state, frameTooLarge(config, frame.byteLength));
    case 'audio':
      return audio(state, frame.data);
    case 'text':
      return frame.parsed.ok
        ? message(state, frame.parsed.message)
        : to(state, sendError(frame.parsed.code, frame.parsed.message));
  }
}

export function partial(state: SessionState, channel: number, text: string): Transition {
  if (state.kind !== 'streaming' || !state.streaming.interimResults || text.trim() === '') return stay(state);
  const startMs = state.streaming.lastFinalEndMs[channel] ?? 0;
  return to(state, { type: 'send', event: { type: 'partial', text, startMs, channel } });
}

/**
 * Finals count until the session's last ones are stored: those of an ending are stored too, and
 * are provisional when no open socket will receive them (a lost socket, a shutdown).
 */
export function final(state: SessionState, channel: number, recognized: FinalEvent): Transition {
  if (state.kind === 'streaming') {
    const added = addFinal(state.streaming, state.identity.sessionId, channel, recognized, false);
    if (added === undefined) return stay(state);
    return withStreaming(state, { ...state.streaming, ...added.transcript }, added.command);
  }
  if (state.kind === 'ending' && state.phase !== 'recording') {
    const provisional = state.ending.path !== 'finish';
    const added = addFinal(state.transcript, state.identity.sessionId, channel, recognized, provisional);
    return added === undefined ? stay(state) : to({ ...state, transcript: added.transcript }, added.command);
  }
  return stay(state);
}

/**
 * A final is stored: its audio may be acknowledged, at once, so a client whose buffer is full can
 * send again.
 */
export function finalStored(state: SessionState, seq: number): Transition {
  const stored = <T extends Transcript>(transcript: T): T => ({
    ...transcript,
    unstored: transcript.unstored.filter((final) => final.seq !== seq),
  });
  if (state.kind === 'ending') return stay({ ...state, transcript: stored(state.transcript) });
  if (state.kind !== 'streaming') return stay(state);
  const acked = acknowledge(stored(state.streaming), 0);
  return withStreaming(state, acked.streaming, ...acked.commands);
}

/**
 * The channel's recognizer committed its audio up to `ms` of its stream; acknowledged each 500 ms
 * it moves on, also while no audio arrives. An ending keeps what it had.
 */
export function committed(state: SessionState, channel: number, ms: number): Transition {
  if (state.kind !== 'streaming') return stay(state);
  const { streaming } = state;
  const committedMs = commit(streaming.committedMs, channel, (streaming.streamOffsetMs[channel] ?? 0) + ms);
  const acked = acknowledge({ ...streaming, committedMs }, ACK_INTERVAL_MS);
  return withStreaming(state, acked.streaming, ...acked.commands);
}

/** A segment could not be stored: nothing later is; a streaming session ends so the client resumes. */
export function storageFailed(state: SessionState): Transition {
  if (state.kind === 'ending') return stay({ ...state, transcript: { ...state.transcript, storageFailed: true } });
  if (state.kind !== 'streaming') return stay(state);
  return finish(
    { ...state, streaming: { ...state.streaming, storageFailed: true } },
    fatal('internal_error', 'A transcript segment could not be stored; resume the session to continue.'),
  );
}

function warning(
  state: StreamingState,
  code: 'credential_expiring' | 'session_limit_approaching',
  message: string,
  remainingMs: number,
): Transition {
  return to(state, { type: 'send', event: { type: 'warning', code, message, remainingMs: Math.round(remainingMs) } });
}

/** The limits a started session runs against. */
export function streamingTimer(
  config: SessionMachineConfig,
  state: StreamingState,
  timer: Exclude<Timer, { name: 'idle' | 'flush' }>,
): Transition {
  const { limits } = config;
  switch (timer.name) {
    case 'session_warning':
      return warning(
        state,
        'session_limit_approaching',
        'The session reaches its maximum length soon.',
        timer.remainingMs,
      );
    case 'session_limit':
      return finish(
        state,
        fatal('session_limit', `The session reached its maximum length of ${limits.maxSessionSeconds} s.`),
      );
    case 'credential_check':
      return to(state, { type: 'revalidate' });
    case 'credential_warning':
      return warning(
        state,
        'credential_expiring',
        'The credential that opened this socket expires soon; open a new session with a fresh one.',
        timer.remainingMs,
      );
    case 'credential_expiry':
      return finish(state, fatal('credential_expired', 'The credential that opened this socket expired.'));
  }
}
