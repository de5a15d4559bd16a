/** A started session: audio in, transcript out, and the limits that end it. */
import { bytesPerFrame, framesIn, type RealtimeClientMessage } from '@chartwright/protocol';

import type { FinalEvent } from '../../asr/recognizer.js';
import { ACK_INTERVAL_MS, audioMsOf, fatal, frameTooLarge, sendError, stay, STOPPED, to } from './common.js';
import { finish } from './ending.js';
import { addFinal } from './transcript.js';
import type {
  Frame,
  SessionCommand,
  SessionMachineConfig,
  SessionState,
  Streaming,
  Timer,
  Transition,
} from './types.js';

type StreamingState = Extract<SessionState, { kind: 'streaming' }>;

function withStreaming(state: StreamingState, streaming: Streaming, ...commands: SessionCommand[]): Transition {
  return to({ ...state, streaming }, ...commands);
}

/** Drops misaligned audio and, while paused, all of it; counts the rest and acknowledges each 500 ms. */
function audio(state: StreamingState, data: Uint8Array): Transition {
  const { streaming } = state;
  const { format } = streaming;
  const frames = framesIn(format, data.byteLength);
  if (frames === undefined) {
    return to(
      state,
      sendError(
        'misaligned_audio',
        `${format.encoding} audio with ${format.channels} channel(s) comes in multiples of ` +
          `${bytesPerFrame(format)} bytes; this frame had ${data.byteLength} and was dropped.`,
      ),
    );
  }
  if (streaming.paused || frames === 0) return stay(state);
  const commands: SessionCommand[] = [];
  // After a resume, the resent audio the recognizer already transcribed is counted, not decoded again.
  const skipped = Math.max(0, Math.min(frames, streaming.skipUntilFrames - streaming.framesReceived));
  if (skipped < frames) {
    commands.push({
      type: 'write_audio',
      format,
      data: skipped === 0 ? data : data.subarray(skipped * bytesPerFrame(format)),
    });
  }
  const next: Streaming = { ...streaming, framesReceived: streaming.framesReceived + frames };
  const audioMs = audioMsOf(next);
  const due = Math.floor(audioMs / ACK_INTERVAL_MS);
  if (due > next.acked) {
    next.acked = due;
    commands.push({ type: 'send', event: { type: 'ack', audioMs } });
  }
  return withStreaming(state, next, ...commands);
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

/** Finals count until the session's last ones are stored: those of an ending are stored too. */
export function final(state: SessionState, channel: number, recognized: FinalEvent): Transition {
  if (state.kind === 'streaming') {
    const added = addFinal(state.streaming, state.identity.sessionId, channel, recognized);
    return added === undefined
      ? stay(state)
      : withStreaming(state, { ...state.streaming, ...added.transcript }, added.command);
  }
  if (state.kind === 'ending' && state.phase !== 'recording') {
    const added = addFinal(state.transcript, state.identity.sessionId, channel, recognized);
    return added === undefined ? stay(state) : to({ ...state, transcript: added.transcript }, added.command);
  }
  return stay(state);
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
