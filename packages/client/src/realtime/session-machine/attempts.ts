/**
 * Opening sockets until one starts (or resumes) the session: a credential, a socket, `start`, and
 * its answer. A failed attempt is retried after a backoff when another may succeed, up to the limit.
 */
import { realtimeCloseOutcome, realtimeErrorOutcome, REALTIME_CLOSE_CODES } from '@chartwright/protocol';

import { ChartwrightError } from '../../errors.js';
import { RealtimeError } from '../errors.js';
import type { RealtimeReconnectReason, RealtimeStartedEvent } from '../events.js';
import { emit, MIN_REFRESH_DELAY_MS, stay, followedBy, to } from './common.js';
import { finish } from './finish.js';
import type { Attempt, ClientCommand, ClientMachineConfig, ClientState, ClientTransition, Progress } from './types.js';

/** Credential failures worth another attempt. */
const RETRYABLE_CREDENTIAL_ERRORS: ReadonlySet<string> = new Set(['token_callback_failed', 'api_key_unavailable']);

type Connecting = Extract<ClientState, { kind: 'connecting' | 'reconnecting' }>;

function connecting(state: ClientState): state is Connecting {
  return state.kind === 'connecting' || state.kind === 'reconnecting';
}

function withStep(state: Connecting, step: Attempt['step']): Connecting {
  return { ...state, attempt: { ...state.attempt, step } };
}

/** The first connection gets one attempt more than `maxReconnectAttempts`; a reconnection gets that many. */
export function startConnecting(
  config: ClientMachineConfig,
  progress: Progress,
  reason: RealtimeReconnectReason | undefined,
): ClientTransition {
  const limit = config.maxReconnectAttempts + (reason === undefined ? 1 : 0);
  const attempt: Attempt = { reason, number: 1, limit, step: { name: 'credential' } };
  const state: Connecting =
    reason === undefined ? { kind: 'connecting', progress, attempt } : { kind: 'reconnecting', progress, attempt };
  if (limit === 0) {
    return connectFailed(
      state,
      new RealtimeError('The socket was lost and maxReconnectAttempts is 0.', 'reconnect_failed', true),
    );
  }
  return to(state, { type: 'get_credential' });
}

/** No socket started the session: the first connection rejects `open()`, a reconnection ends the session. */
function connectFailed(state: Connecting, error: unknown): ClientTransition {
  if (state.attempt.reason === undefined) {
    const finished = finish(state, REALTIME_CLOSE_CODES.normal, 'not started', undefined);
    return { state: finished.state, commands: [...finished.commands, { type: 'open_failed', error }] };
  }
  const failure =
    error instanceof RealtimeError
      ? error
      : new RealtimeError('The session could not reconnect.', 'reconnect_failed', true, { cause: error });
  return finish(state, REALTIME_CLOSE_CODES.normal, 'reconnect failed', failure);
}

/** The attempt failed: another one after a backoff, when one may help and the limit allows. */
function attemptFailed(
  config: ClientMachineConfig,
  state: Connecting,
  retry: boolean,
  error: ChartwrightError,
): ClientTransition {
  const waiting = withStep(state, { name: 'waiting' });
  const { reason, number, limit } = state.attempt;
  if (!retry) return connectFailed(waiting, error);
  if (number >= limit) {
    return connectFailed(
      waiting,
      new RealtimeError(
        `The realtime session could not ${reason === undefined ? 'start' : 'reconnect'} after ${number} attempts: ` +
          error.message,
        reason === undefined ? 'connection_failed' : 'reconnect_failed',
        true,
        { cause: error },
      ),
    );
  }
  const delayMs = config.backoffMs(number - 1);
  return to(
    waiting,
    reason === undefined
      ? emit('retrying', { attempt: number + 1, of: limit, delayMs, error })
      : emit('reconnecting', { reason, attempt: number + 1, delayMs }),
    {
      type: 'log',
      level: 'info',
      message: 'realtime: retrying the connection',
      fields: { attempt: number, code: error.code, delayMs },
    },
    { type: 'schedule', timer: 'retry', ms: delayMs },
  );
}

export function retryDue(state: ClientState): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'waiting') return stay(state);
  return to(
    { ...state, attempt: { ...state.attempt, number: state.attempt.number + 1, step: { name: 'credential' } } },
    { type: 'get_credential' },
  );
}

export function credentialGot(
  config: ClientMachineConfig,
  state: ClientState,
  credential: string,
  expiresAtMs: number | undefined,
): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'credential') return stay(state);
  const refused = state.progress.refused;
  if (refused?.credential === credential) return attemptFailed(config, state, false, refused.error);
  return to(withStep(state, { name: 'opening', credential, expiresAtMs }), { type: 'open_socket', credential });
}

/** A failing token callback (or apiKey function) may work next time; anything else is not ours to retry. */
export function credentialFailed(config: ClientMachineConfig, state: ClientState, error: unknown): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'credential') return stay(state);
  if (!(error instanceof ChartwrightError)) return connectFailed(state, error);
  return attemptFailed(config, state, RETRYABLE_CREDENTIAL_ERRORS.has(error.code), error);
}

export function socketOpened(config: ClientMachineConfig, state: ClientState, socket: number): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'opening') {
    return to(state, {
      type: 'close_socket',
      socket,
      code: REALTIME_CLOSE_CODES.normal,
      reason: 'closed by the client',
    });
  }
  const { expiresAtMs } = state.attempt.step;
  const { progress } = state;
  const { format, language, interimResults, vocabulary } = config;
  return to(
    withStep(state, { name: 'starting', socket: { id: socket, error: undefined, ended: undefined }, expiresAtMs }),
    {
      type: 'send_message',
      socket,
      message: {
        type: 'start',
        audio: format,
        language,
        interimResults,
        ...(vocabulary === undefined ? {} : { vocabulary: [...vocabulary] }),
        ...(progress.started === undefined
          ? {}
          : {
              resume: {
                sessionId: progress.started.sessionId,
                resumeToken: progress.started.resumeToken,
                lastAckedAudioMs: progress.lastAckedAudioMs,
                ...(progress.lastSegmentId === undefined ? {} : { lastSegmentId: progress.lastSegmentId }),
              },
            }),
      },
    },
  );
}

/** The service refused the upgrade: a 401 refuses the credential, so only a fresh one may be accepted. */
export function socketRefused(
  config: ClientMachineConfig,
  state: ClientState,
  status: number,
  error: ChartwrightError,
): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'opening') return stay(state);
  if (status === 401) {
    const refused = { credential: state.attempt.step.credential, error };
    const next = { ...state, progress: { ...state.progress, refused } };
    return followedBy(
      to(next, ...(config.renewable ? [{ type: 'invalidate_credential' } as const] : [])),
      attemptFailed(config, next, config.renewable, error),
    );
  }
  return attemptFailed(config, state, status === 429 || status >= 500, error);
}

export function socketFailed(state: ClientState, error: unknown): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'opening') return stay(state);
  return connectFailed(state, error);
}

/**
 * The socket did not open, and why is hidden (browsers): the credential may have been refused, so
 * the next attempt fetches a fresh one when it can.
 */
export function socketUnreachable(config: ClientMachineConfig, state: ClientState, cause: unknown): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'opening') return stay(state);
  const error = new RealtimeError(
    'The realtime WebSocket did not open: the service could not be reached, or it refused the credential.',
    'connection_failed',
    false,
    { cause },
  );
  return followedBy(to(state, { type: 'invalidate_credential' }), attemptFailed(config, state, true, error));
}

/** A non-fatal `error` answering `start`: the socket stays open, but this attempt is over. */
export function startRefused(config: ClientMachineConfig, state: ClientState, error: RealtimeError): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'starting') return stay(state);
  const close: ClientCommand = {
    type: 'close_socket',
    socket: state.attempt.step.socket.id,
    code: REALTIME_CLOSE_CODES.normal,
    reason: 'start refused',
  };
  const retry = realtimeErrorOutcome(error.code)?.retryStart === true;
  const failure = retry ? error : new RealtimeError(error.message, error.code, true);
  return followedBy(to(state, close), attemptFailed(config, state, retry, failure));
}

/** The socket closed before `started`: its last fatal error, else its close code, says whether to retry. */
export function startingSocketClosed(config: ClientMachineConfig, state: ClientState, code: number): ClientTransition {
  if (!connecting(state) || state.attempt.step.name !== 'starting') return stay(state);
  const { error } = state.attempt.step.socket;
  const retry =
    error === undefined
      ? realtimeCloseOutcome(code) !== 'final'
      : realtimeErrorOutcome(error.code)?.retryStart === true;
  const failure =
    error ?? new RealtimeError(`The socket closed (${code}) before the session started.`, 'connection_failed', false);
  return attemptFailed(config, state, retry, failure);
}

/**
 * `started`: the session is open. A resume sends again the audio after the last acknowledged
 * position (the service continues its clock there), and a pending pause or stop.
 */
export function started(
  config: ClientMachineConfig,
  state: ClientState,
  event: RealtimeStartedEvent,
  at: number,
): ClientTransition {
  if (!connecting(state)) return stay(state);
  const { progress, attempt } = state;
  if (attempt.step.name !== 'starting') return stay(state);
  const { socket, expiresAtMs } = attempt.step;
  const first = progress.started === undefined;
  const message = (type: 'pause' | 'stop'): ClientCommand => ({
    type: 'send_message',
    socket: socket.id,
    message: { type },
  });
  const refreshAt =
    config.expiring && expiresAtMs !== undefined ? expiresAtMs - config.tokenRefreshMarginMs - at : undefined;
  const sessionId = event.sessionId;
  const commands: ClientCommand[] = [
    { type: 'schedule', timer: 'keepalive', ms: event.limits.keepaliveIntervalSeconds * 1000, repeat: true },
    { type: 'clear_timer', timer: 'refresh' },
    ...(refreshAt === undefined
      ? []
      : [{ type: 'schedule', timer: 'refresh', ms: Math.max(MIN_REFRESH_DELAY_MS, refreshAt) } as const]),
  ];
  if (first) {
    commands.push(
      { type: 'log', level: 'info', message: 'realtime: session started', fields: { sessionId } },
      emit('started', event),
    );
  } else {
    commands.push(
      {
        type: 'resend_audio',
        socket: socket.id,
        fromMs: progress.lastAckedAudioMs,
        maxFrameBytes: event.limits.maxFrameBytes,
      },
      ...(progress.paused ? [message('pause')] : []),
      {
        type: 'log',
        level: 'info',
        message: 'realtime: session resumed',
        fields: { sessionId, attempts: attempt.number },
      },
      emit('reconnected', { reason: attempt.reason ?? 'connection_lost', attempts: attempt.number, sessionId }),
    );
  }
  if (progress.stopping) commands.push(message('stop'));
  if (attempt.reason === undefined) commands.push({ type: 'opened' });
  return to({ kind: 'open', progress: { ...progress, started: event }, socket }, ...commands);
}
