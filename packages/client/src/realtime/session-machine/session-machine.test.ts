import type { RealtimeServerEvent, TranscriptSegment } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import { AuthenticationError, ChartwrightError } from '../../errors.js';
import { RealtimeError } from '../errors.js';
import type { RealtimeEndedEvent, RealtimeStartedEvent } from '../events.js';
import { initialClient, transition } from './index.js';
import type { ClientCommand, ClientEvent, ClientMachineConfig, ClientState, ClientTransition } from './types.js';

/** A final's segment; the machine reads only its id. */
const SEGMENT: TranscriptSegment = {
  id: 'seg_000001',
  text: '',
  display: '',
  displayTokens: [],
  startMs: 0,
  endMs: 1,
  channel: 0,
  speaker: 'unknown',
};

/**
 * The client session's transitions, as tables: a state, the events, and what the session becomes
 * and asks its adapters to do. The session against the real service is realtime.int.test.ts.
 */

const T0 = Date.UTC(2026, 0, 1);
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 } as const;
const CONFIG: ClientMachineConfig = {
  format: FORMAT,
  language: 'en-US',
  interimResults: true,
  vocabulary: undefined,
  tokenRefreshMarginMs: 60_000,
  maxReconnectAttempts: 2,
  renewable: true,
  expiring: false,
  backoffMs: (retry) => 500 * 2 ** retry,
};
const STARTED: RealtimeStartedEvent = {
  type: 'started',
  sessionId: 'rts_1',
  resumeToken: 'rsm_1',
  resumed: false,
  credentialExpiresAt: null,
  audio: FORMAT,
  limits: { maxSessionSeconds: 14_400, idleTimeoutSeconds: 30, keepaliveIntervalSeconds: 10, maxFrameBytes: 3200 },
};

function run(events: readonly ClientEvent[], from: ClientState, config = CONFIG): ClientTransition {
  return events.reduce<ClientTransition>(
    (sofar, event) => {
      const next = transition(config, sofar.state, event);
      return { state: next.state, commands: [...sofar.commands, ...next.commands] };
    },
    { state: from, commands: [] },
  );
}

const credential = (value = 'svc_rt_1', expiresAtMs?: number): ClientEvent => ({
  type: 'credential',
  value,
  expiresAtMs,
});
const opened = (socket = 1): ClientEvent => ({ type: 'socket_opened', socket });
const server = (event: RealtimeServerEvent, socket = 1, at = T0): ClientEvent => ({
  type: 'server_event',
  socket,
  event,
  at,
});
const closed = (code: number, socket = 1, reason = ''): ClientEvent => ({
  type: 'socket_closed',
  socket,
  code,
  reason,
});
const serverError = (code: string, fatal: boolean, message = `${code} happened`): ClientEvent =>
  server({ type: 'error', code, message, fatal });
const ended = (reason: RealtimeEndedEvent['reason']): RealtimeEndedEvent => ({
  type: 'ended',
  sessionId: 'rts_1',
  reason,
  audioMs: 1500,
  segments: 2,
});

const fresh = (config = CONFIG) => initialClient(config).state;
const unauthorized = (code: string) =>
  new AuthenticationError({
    status: 401,
    code,
    type: 'authentication_error',
    message: code,
    requestId: undefined,
    param: undefined,
    details: [],
    headers: new Headers(),
  });
/** A session open on socket 1. */
const open = (config = CONFIG, events: ClientEvent[] = []) =>
  run([credential(), opened(), server(STARTED), ...events], fresh(config), config).state;

const emitted = (commands: readonly ClientCommand[]) =>
  commands.flatMap((command) => (command.type === 'emit' ? [command.name] : []));
const emittedEvent = (commands: readonly ClientCommand[], name: string) =>
  commands.find((command) => command.type === 'emit' && command.name === name);
const sentMessages = (commands: readonly ClientCommand[]) =>
  commands.flatMap((command) => (command.type === 'send_message' ? [command.message] : []));

describe('the client session machine: connecting', () => {
  it('fetches a credential, opens a socket with it, sends start, and opens on started', () => {
    expect(initialClient(CONFIG)).toEqual({
      state: {
        kind: 'connecting',
        progress: {
          started: undefined,
          lastAckedAudioMs: 0,
          lastSegmentId: undefined,
          paused: false,
          stopping: false,
          refused: undefined,
        },
        attempt: { reason: undefined, number: 1, limit: 3, step: { name: 'credential' } },
      },
      commands: [{ type: 'get_credential' }],
    });
    const socket = run([credential(), opened()], fresh());
    expect(socket.commands).toEqual([
      { type: 'open_socket', credential: 'svc_rt_1' },
      {
        type: 'send_message',
        socket: 1,
        message: { type: 'start', audio: FORMAT, language: 'en-US', interimResults: true },
      },
    ]);
    const started = run([server(STARTED)], socket.state);
    expect(started.state).toMatchObject({ kind: 'open', progress: { started: STARTED }, socket: { id: 1 } });
    expect(started.commands).toEqual([
      { type: 'schedule', timer: 'keepalive', ms: 10_000, repeat: true },
      { type: 'clear_timer', timer: 'refresh' },
      { type: 'log', level: 'info', message: 'realtime: session started', fields: { sessionId: 'rts_1' } },
      { type: 'emit', name: 'started', event: STARTED },
      { type: 'opened' },
    ]);
  });

  it('sends the vocabulary with start', () => {
    const config = { ...CONFIG, vocabulary: ['metoprolol'] };
    expect(sentMessages(run([credential(), opened()], fresh(config), config).commands)).toEqual([
      { type: 'start', audio: FORMAT, language: 'en-US', interimResults: true, vocabulary: ['metoprolol'] },
    ]);
  });

  it.each([
    [
      'a 503',
      { type: 'socket_refused', status: 503, error: new ChartwrightError('down', 'service_unavailable') },
      false,
    ],
    ['a 429', { type: 'socket_refused', status: 429, error: new ChartwrightError('slow down', 'rate_limited') }, false],
    ['a socket that did not open (the answer hidden)', { type: 'socket_unreachable', cause: new Error('x') }, true],
    [
      'a failing token callback',
      { type: 'credential_failed', error: new RealtimeError('cb', 'token_callback_failed', false) },
      false,
    ],
    [
      'an apiKey function that failed',
      { type: 'credential_failed', error: new ChartwrightError('no key', 'api_key_unavailable') },
      false,
    ],
  ] as const)('retries after %s, after a backoff', (_name, failure, invalidates) => {
    const events: ClientEvent[] = failure.type === 'credential_failed' ? [failure] : [credential(), failure];
    const { state, commands } = run(events, fresh());
    expect(state).toMatchObject({ kind: 'connecting', attempt: { number: 1, step: { name: 'waiting' } } });
    expect(commands.some((command) => command.type === 'invalidate_credential')).toBe(invalidates);
    expect(commands.slice(-2)).toEqual([
      {
        type: 'log',
        level: 'info',
        message: 'realtime: retrying the connection',
        fields: expect.objectContaining({ attempt: 1, delayMs: 500 }) as unknown,
      },
      { type: 'schedule', timer: 'retry', ms: 500 },
    ]);
    // A first connection has no session to reconnect: it says it retries, and why.
    expect(emitted(commands)).toEqual(['retrying']);
    const error = failure.type === 'socket_unreachable' ? { code: 'connection_failed' } : { code: failure.error.code };
    expect(emittedEvent(commands, 'retrying')).toMatchObject({
      event: { attempt: 2, of: 3, delayMs: 500, error },
    });
    const retried = run([{ type: 'timer', timer: 'retry' }], state);
    expect(retried).toMatchObject({
      state: { attempt: { number: 2, step: { name: 'credential' } } },
      commands: [{ type: 'get_credential' }],
    });
  });

  it('gives up after maxReconnectAttempts + 1 tries with connection_failed, closing and rejecting open()', () => {
    const down = {
      type: 'socket_refused',
      status: 503,
      error: new ChartwrightError('down', 'service_unavailable'),
    } as const;
    const retry = { type: 'timer', timer: 'retry' } as const;
    const { state, commands } = run(
      [credential(), down, retry, credential(), down, retry, credential(), down],
      fresh(),
    );
    expect(state.kind).toBe('closed');
    const failure = commands.at(-1);
    expect(failure).toMatchObject({ type: 'open_failed' });
    const error = failure?.type === 'open_failed' ? failure.error : undefined;
    expect(error).toMatchObject({
      code: 'connection_failed',
      fatal: true,
      message: 'The realtime session could not start after 3 attempts: down',
    });
    expect(emittedEvent(commands, 'close')).toEqual({
      type: 'emit',
      name: 'close',
      event: { code: 1000, reason: 'not started', ended: undefined, error: undefined },
    });
  });

  it('on a 401 fetches a fresh credential, and never offers the refused one again', () => {
    const refusal = unauthorized('api_key_revoked');
    const refused = { type: 'socket_refused', status: 401, error: refusal } as const;
    const first = run([credential('svc_rt_old'), refused], fresh());
    expect(first.state).toMatchObject({ progress: { refused: { credential: 'svc_rt_old', error: refusal } } });
    expect(first.commands[1]).toEqual({ type: 'invalidate_credential' });
    const again = run([{ type: 'timer', timer: 'retry' }, credential('svc_rt_old')], first.state);
    expect(again.state.kind).toBe('closed');
    expect(again.commands.at(-1)).toEqual({ type: 'open_failed', error: refusal });
  });

  it('on a 401 with a fixed token, fails at once with the refusal', () => {
    const config = { ...CONFIG, renewable: false };
    const refusal = unauthorized('invalid_api_key');
    const { state, commands } = run(
      [credential(), { type: 'socket_refused', status: 401, error: refusal }],
      fresh(config),
      config,
    );
    expect(state.kind).toBe('closed');
    expect(commands.some((command) => command.type === 'invalidate_credential')).toBe(false);
    expect(commands.at(-1)).toEqual({ type: 'open_failed', error: refusal });
  });

  it.each([
    ['a refused credential in a browser', new ChartwrightError('sk_ in a page', 'permanent_key_in_browser')],
    ['an error that is not the library’s', new TypeError('boom')],
  ])('does not retry %s', (_name, error) => {
    const { state, commands } = run([{ type: 'credential_failed', error }], fresh());
    expect(state.kind).toBe('closed');
    expect(commands.at(-1)).toEqual({ type: 'open_failed', error });
  });

  it.each([
    ['unsupported_language', false, false],
    ['invalid_message', false, false],
    ['resume_failed', false, true],
    ['at_capacity', true, true],
    ['tenant_at_capacity', true, true],
    ['internal_error', true, true],
    ['recognizer_crashed', true, true],
    ['recognizer_unavailable', true, false],
    ['credential_expired', true, false],
  ])('answers a start refused with %s (fatal: %s) by retrying: %s', (code, fatal, retry) => {
    const answer = fatal ? [serverError(code, true), closed(1011)] : [serverError(code, false)];
    const { state, commands } = run([credential(), opened(), ...answer], fresh());
    if (!fatal)
      expect(commands).toContainEqual({ type: 'close_socket', socket: 1, code: 1000, reason: 'start refused' });
    if (retry) {
      expect(state).toMatchObject({ kind: 'connecting', attempt: { step: { name: 'waiting' } } });
      return;
    }
    expect(state.kind).toBe('closed');
    expect(commands.at(-1)).toEqual({
      type: 'open_failed',
      error: expect.objectContaining({ code, message: `${code} happened`, fatal: true }) as unknown,
    });
  });

  it.each([
    [1008, false],
    [1009, false],
    [4003, false],
    [1006, true],
    [1011, true],
  ])('answers a socket closed (%i) before started, without an error, by retrying: %s', (code, retry) => {
    const { state, commands } = run([credential(), opened(), closed(code)], fresh());
    if (retry) {
      expect(state).toMatchObject({ kind: 'connecting', attempt: { step: { name: 'waiting' } } });
      expect(commands).toContainEqual(
        expect.objectContaining({ fields: expect.objectContaining({ code: 'connection_failed' }) as unknown }),
      );
    } else {
      expect(commands.at(-1)).toEqual({
        type: 'open_failed',
        error: expect.objectContaining({
          code: 'connection_failed',
          message: `The socket closed (${code}) before the session started.`,
        }) as unknown,
      });
    }
  });

  it('closes a socket that opens after the session closed', () => {
    const closedSession = run([credential(), { type: 'close' }], fresh()).state;
    expect(run([opened(7)], closedSession)).toEqual({
      state: closedSession,
      commands: [{ type: 'close_socket', socket: 7, code: 1000, reason: 'closed by the client' }],
    });
  });
});

describe('the client session machine: open', () => {
  it('acknowledges audio up to the furthest ack, and passes it on', () => {
    const { state, commands } = run(
      [server({ type: 'ack', audioMs: 1000 }), server({ type: 'ack', audioMs: 500 })],
      open(),
    );
    expect(state.progress.lastAckedAudioMs).toBe(1000);
    expect(commands.filter((command) => command.type === 'acknowledge_audio')).toEqual([
      { type: 'acknowledge_audio', audioMs: 1000 },
      { type: 'acknowledge_audio', audioMs: 1000 },
    ]);
    expect(emitted(commands)).toEqual(['ack', 'ack']);
  });

  it('emits each final once, in the protocol’s numeric order of ids, also past seg_999999', () => {
    const final = (id: string) => server({ type: 'final', segment: { ...SEGMENT, id, text: id } });
    const { state, commands } = run(
      [final('seg_999998'), final('seg_999999'), final('seg_999999'), final('seg_1000000'), final('seg_999999')],
      open(),
    );
    expect(state.progress.lastSegmentId).toBe('seg_1000000');
    expect(
      commands.flatMap((command) =>
        command.type === 'emit' && command.name === 'final' ? [command.event.segment.id] : [],
      ),
    ).toEqual(['seg_999998', 'seg_999999', 'seg_1000000']);
  });

  it('passes on partials, warnings and non-fatal errors; keeps a fatal error and ended for the close', () => {
    const { state, commands } = run(
      [
        server({ type: 'partial', text: 'go', startMs: 0, channel: 0 }),
        server({ type: 'warning', code: 'session_limit_approaching', message: 'soon', remainingMs: 60_000 }),
        serverError('frame_too_large', false),
        serverError('session_limit', true),
        server(ended('session_limit')),
      ],
      open(),
    );
    expect(emitted(commands)).toEqual(['partial', 'warning', 'error']);
    expect(state).toMatchObject({
      socket: { error: { code: 'session_limit', fatal: true }, ended: { reason: 'session_limit' } },
    });
  });

  it('ignores what a socket it no longer uses says', () => {
    const session = open();
    expect(run([server({ type: 'ack', audioMs: 500 }, 2), closed(1006, 2)], session)).toEqual({
      state: session,
      commands: [],
    });
  });

  it('keeps audio and writes it on the open socket; keeps it unwritten while reconnecting; refuses misaligned audio', () => {
    const bytes = new Uint8Array(320);
    expect(run([{ type: 'send', bytes }], open()).commands).toEqual([
      { type: 'keep_audio', bytes, write: { socket: 1, maxFrameBytes: 3200 } },
    ]);
    const reconnecting = run([closed(1006)], open()).state;
    expect(run([{ type: 'send', bytes }], reconnecting).commands).toEqual([
      { type: 'keep_audio', bytes, write: undefined },
    ]);
    const { commands } = run([{ type: 'send', bytes: new Uint8Array(3) }], open());
    expect(commands).toEqual([
      {
        type: 'refuse',
        error: expect.objectContaining({
          code: 'misaligned_audio',
          fatal: false,
          message: 'pcm_s16le audio with 1 channel(s) comes in multiples of 2 bytes; got 3.',
        }) as unknown,
      },
    ]);
    expect(run([{ type: 'send', bytes: new Uint8Array(0) }], open()).commands).toEqual([]);
  });

  it('finalizes, pauses (dropping audio) and resumes on the open socket; a second pause is nothing', () => {
    const { state, commands } = run(
      [
        { type: 'finalize' },
        { type: 'pause' },
        { type: 'pause' },
        { type: 'send', bytes: new Uint8Array(320) },
        { type: 'resume' },
      ],
      open(),
    );
    expect(commands).toEqual([
      { type: 'send_message', socket: 1, message: { type: 'finalize' } },
      { type: 'send_message', socket: 1, message: { type: 'pause' } },
      { type: 'send_message', socket: 1, message: { type: 'resume' } },
    ]);
    expect(state.progress.paused).toBe(false);
  });

  it('sends keepalive when the interval passed quietly, and nothing otherwise', () => {
    expect(run([{ type: 'keepalive_due', quiet: true }], open()).commands).toEqual([
      { type: 'send_message', socket: 1, message: { type: 'keepalive' } },
    ]);
    expect(run([{ type: 'keepalive_due', quiet: false }], open()).commands).toEqual([]);
  });

  it('stops: sends stop, refuses audio meanwhile, and resolves with ended once the service closes', () => {
    const stopping = run([{ type: 'stop' }, { type: 'stop' }, { type: 'send', bytes: new Uint8Array(2) }], open());
    expect(stopping.commands).toEqual([
      { type: 'send_message', socket: 1, message: { type: 'stop' } },
      {
        type: 'refuse',
        error: expect.objectContaining({
          code: 'session_closed',
          message: 'The session is stopping.',
          fatal: false,
        }) as unknown,
      },
    ]);
    const done = run([server(ended('stopped')), closed(1000, 1, 'stopped')], stopping.state);
    expect(done.state).toMatchObject({ kind: 'closed', ended: ended('stopped') });
    expect(done.commands).toEqual([
      { type: 'clear_timer', timer: 'keepalive' },
      { type: 'clear_timer', timer: 'refresh' },
      { type: 'clear_timers' },
      { type: 'emit', name: 'ended', event: ended('stopped') },
      { type: 'stopped', ended: ended('stopped') },
      { type: 'log', level: 'info', message: 'realtime: session closed', fields: { code: 1000, error: undefined } },
      {
        type: 'emit',
        name: 'close',
        event: { code: 1000, reason: 'stopped', ended: ended('stopped'), error: undefined },
      },
    ]);
    // After the session stopped, stop() resolves with its totals again; send() is refused.
    expect(run([{ type: 'stop' }], done.state).commands).toEqual([{ type: 'stopped', ended: ended('stopped') }]);
    expect(run([{ type: 'send', bytes: new Uint8Array(2) }], done.state).commands).toMatchObject([
      { type: 'refuse', error: { message: 'The session is closed.' } },
    ]);
  });

  it('closes at once on close(), rejecting a pending stop, and only once', () => {
    const { state, commands } = run([{ type: 'stop' }, { type: 'close' }, { type: 'close' }], open());
    expect(state.kind).toBe('closed');
    expect(commands.slice(1)).toEqual([
      { type: 'clear_timers' },
      { type: 'close_socket', socket: 1, code: 1000, reason: 'closed by the client' },
      {
        type: 'stop_failed',
        error: expect.objectContaining({
          code: 'session_closed',
          message: 'The session was closed before it stopped.',
        }) as unknown,
      },
      { type: 'log', level: 'info', message: 'realtime: session closed', fields: { code: 1000, error: undefined } },
      {
        type: 'emit',
        name: 'close',
        event: { code: 1000, reason: 'closed by the client', ended: undefined, error: undefined },
      },
    ]);
    expect(run([{ type: 'stop' }], state).commands).toMatchObject([
      { type: 'stop_failed', error: { message: 'The session is closed.', fatal: true } },
    ]);
  });
});

describe('the client session machine: a socket closing', () => {
  it.each([
    [
      'session_limit (ended)',
      [serverError('session_limit', true), server(ended('session_limit'))],
      4001,
      'session_limit',
    ],
    ['recognizer_unavailable', [serverError('recognizer_unavailable', true)], 1011, 'recognizer_unavailable'],
    ['recognizer_overloaded', [serverError('recognizer_overloaded', true)], 4004, 'recognizer_overloaded'],
    ['policy (1008) without an error', [], 1008, 'session_closed'],
    ['frame too big (1009) without an error', [], 1009, 'session_closed'],
    ['invalid message (4003) without an error', [], 4003, 'session_closed'],
  ] as const)('ends the session after %s: resuming cannot help', (_name, before, code, errorCode) => {
    const { state, commands } = run([...before, closed(code)], open());
    expect(state.kind).toBe('closed');
    expect(emittedEvent(commands, 'error')).toMatchObject({ event: { code: errorCode, fatal: true } });
    expect(commands.some((command) => command.type === 'close_socket')).toBe(false);
  });

  it('ends after an ended session_limit even without its error', () => {
    const { commands } = run([server(ended('session_limit')), closed(4001)], open());
    expect(emittedEvent(commands, 'error')).toMatchObject({
      event: { code: 'session_limit', message: 'The session reached its maximum length.' },
    });
  });

  it.each([
    ['a lost connection (1006)', [], 1006, undefined],
    ['a crashed recognizer', [serverError('recognizer_crashed', true)], 1011, 'recognizer_crashed'],
    ['an idle timeout', [serverError('idle_timeout', true), server(ended('idle_timeout'))], 4000, 'idle_timeout'],
    ['a server shutdown', [server(ended('server_shutdown'))], 1001, undefined],
    ['our internal error', [serverError('internal_error', true)], 1011, 'internal_error'],
  ] as const)('resumes after %s on a new socket, bounded by maxReconnectAttempts', (_name, before, code, errorCode) => {
    const { state, commands } = run([...before, closed(code)], open());
    expect(state).toMatchObject({
      kind: 'reconnecting',
      attempt: { reason: 'connection_lost', number: 1, limit: 2, step: { name: 'credential' } },
    });
    expect(commands).toEqual([
      { type: 'clear_timer', timer: 'keepalive' },
      { type: 'clear_timer', timer: 'refresh' },
      {
        type: 'log',
        level: 'info',
        message: 'realtime: socket lost, resuming',
        fields: { reason: 'connection_lost', code: errorCode },
      },
      { type: 'emit', name: 'reconnecting', event: { reason: 'connection_lost', attempt: 1, delayMs: 0 } },
      { type: 'get_credential' },
    ]);
  });

  it('on 4002 fetches a fresh credential and resumes, or ends when none can come', () => {
    const revoked = run([serverError('credential_expired', true), closed(4002)], open());
    expect(revoked.state).toMatchObject({ kind: 'reconnecting', attempt: { reason: 'credential_expired' } });
    expect(revoked.commands).toContainEqual({ type: 'invalidate_credential' });
    const fixed = { ...CONFIG, renewable: false };
    const final = run([closed(4002)], open(fixed), fixed);
    expect(final.state.kind).toBe('closed');
    expect(emittedEvent(final.commands, 'error')).toMatchObject({
      event: { code: 'credential_expired', message: 'The credential expired or was revoked.' },
    });
  });

  it('resumes with its session id, token, last ack and last segment; resends audio, pause and stop', () => {
    const before = open(CONFIG, [
      server({ type: 'ack', audioMs: 1500 }),
      server({
        type: 'final',
        segment: { ...SEGMENT, id: 'seg_000002', text: 'go', display: 'Go.' },
      }),
      { type: 'pause' },
      { type: 'stop' },
    ]);
    const failedOnce = run(
      [closed(1006), credential(), { type: 'socket_unreachable', cause: new Error('down') }],
      before,
    );
    expect(failedOnce.commands).toContainEqual({
      type: 'emit',
      name: 'reconnecting',
      event: { reason: 'connection_lost', attempt: 2, delayMs: 500 },
    });
    const { state, commands } = run(
      [{ type: 'timer', timer: 'retry' }, credential(), opened(2), server({ ...STARTED, resumed: true }, 2)],
      failedOnce.state,
    );
    expect(sentMessages(commands)[0]).toEqual({
      type: 'start',
      audio: FORMAT,
      language: 'en-US',
      interimResults: true,
      resume: { sessionId: 'rts_1', resumeToken: 'rsm_1', lastAckedAudioMs: 1500, lastSegmentId: 'seg_000002' },
    });
    expect(state).toMatchObject({ kind: 'open', socket: { id: 2 } });
    expect(commands.slice(-5)).toEqual([
      { type: 'resend_audio', socket: 2, fromMs: 1500, maxFrameBytes: 3200 },
      { type: 'send_message', socket: 2, message: { type: 'pause' } },
      { type: 'log', level: 'info', message: 'realtime: session resumed', fields: { sessionId: 'rts_1', attempts: 2 } },
      { type: 'emit', name: 'reconnected', event: { reason: 'connection_lost', attempts: 2, sessionId: 'rts_1' } },
      { type: 'send_message', socket: 2, message: { type: 'stop' } },
    ]);
    expect(emitted(commands)).not.toContain('started');
  });

  it('fails with reconnect_failed after maxReconnectAttempts, and at once when that is 0', () => {
    const down = {
      type: 'socket_refused',
      status: 503,
      error: new ChartwrightError('down', 'service_unavailable'),
    } as const;
    const { state, commands } = run(
      [closed(1006), credential(), down, { type: 'timer', timer: 'retry' }, credential(), down],
      open(),
    );
    expect(state.kind).toBe('closed');
    expect(emittedEvent(commands, 'error')).toMatchObject({
      event: { code: 'reconnect_failed', message: 'The realtime session could not reconnect after 2 attempts: down' },
    });
    expect(emittedEvent(commands, 'close')).toMatchObject({ event: { code: 1000, reason: 'reconnect failed' } });
    const none = { ...CONFIG, maxReconnectAttempts: 0 };
    const at = run([closed(1006)], open(none), none);
    expect(emittedEvent(at.commands, 'error')).toMatchObject({
      event: { code: 'reconnect_failed', message: 'The socket was lost and maxReconnectAttempts is 0.' },
    });
  });

  it('wraps a reconnect’s failure that is not a RealtimeError as reconnect_failed', () => {
    const refusal = unauthorized('api_key_revoked');
    const fixed = { ...CONFIG, renewable: false };
    const { commands } = run(
      [closed(1006), credential(), { type: 'socket_refused', status: 401, error: refusal }],
      open(fixed),
      fixed,
    );
    expect(emittedEvent(commands, 'error')).toMatchObject({
      event: { code: 'reconnect_failed', message: 'The session could not reconnect.', cause: refusal },
    });
  });
});

describe('the client session machine: token refresh', () => {
  const expiring = { ...CONFIG, expiring: true };
  const openWith = (expiresAtMs: number) =>
    run([credential('svc_rt_1', expiresAtMs), opened(), server(STARTED, 1, T0)], fresh(expiring), expiring);

  it('schedules the refresh its margin ahead of expiry, never sooner than 5 s', () => {
    expect(openWith(T0 + 600_000).commands).toContainEqual({ type: 'schedule', timer: 'refresh', ms: 540_000 });
    expect(openWith(T0 + 61_000).commands).toContainEqual({ type: 'schedule', timer: 'refresh', ms: 5000 });
    expect(run([credential(), opened(), server(STARTED)], fresh()).commands).not.toContainEqual(
      expect.objectContaining({ type: 'schedule', timer: 'refresh' }),
    );
  });

  it('fetches the next token, closes the old socket, and resumes on a new one once it closed', () => {
    const due = run([{ type: 'timer', timer: 'refresh' }], openWith(T0 + 600_000).state, expiring);
    expect(due.commands).toEqual([{ type: 'refresh_credential' }]);
    const handing = run([{ type: 'refreshed' }], due.state, expiring);
    expect(handing.state).toMatchObject({
      kind: 'reconnecting',
      attempt: { reason: 'token_refresh', step: { name: 'handover' } },
    });
    expect(handing.commands).toEqual([
      { type: 'clear_timer', timer: 'keepalive' },
      { type: 'clear_timer', timer: 'refresh' },
      { type: 'close_socket', socket: 1, code: 1000, reason: 'token refresh' },
      { type: 'schedule', timer: 'handover', ms: 5000 },
    ]);
    for (const handedOver of [closed(1000, 1, 'token refresh'), { type: 'timer', timer: 'handover' } as const]) {
      const { state, commands } = run([handedOver], handing.state, expiring);
      expect(state).toMatchObject({
        kind: 'reconnecting',
        attempt: { reason: 'token_refresh', number: 1, step: { name: 'credential' } },
      });
      expect(commands.slice(-2)).toEqual([
        { type: 'emit', name: 'reconnecting', event: { reason: 'token_refresh', attempt: 1, delayMs: 0 } },
        { type: 'get_credential' },
      ]);
    }
  });

  it('reports a failed refresh and tries again in 5 s, keeping the socket', () => {
    const { state, commands } = run(
      [
        { type: 'timer', timer: 'refresh' },
        { type: 'refresh_failed', error: new Error('503') },
      ],
      openWith(T0 + 600_000).state,
      expiring,
    );
    expect(state.kind).toBe('open');
    expect(commands.slice(1)).toEqual([
      {
        type: 'emit',
        name: 'error',
        event: expect.objectContaining({
          code: 'token_refresh_failed',
          fatal: false,
          message: 'The token callback failed; retrying.',
        }) as unknown,
      },
      { type: 'schedule', timer: 'refresh', ms: 5000 },
    ]);
  });

  it('moves no stopping session', () => {
    const stopping = run([{ type: 'stop' }], openWith(T0 + 600_000).state, expiring).state;
    expect(run([{ type: 'timer', timer: 'refresh' }, { type: 'refreshed' }], stopping, expiring).commands).toEqual([]);
  });
});
