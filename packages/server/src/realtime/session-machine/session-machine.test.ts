import { parseRealtimeClientMessage, type RealtimeServerEvent, type TranscriptSegment } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import type { RecognizerErrorCode, RecognizerStream } from '../../asr/recognizer.js';
import { withDisplay } from '../segment-view.js';
import { initialSession, transition } from './index.js';
import type {
  ResumePoint,
  SessionCommand,
  SessionEvent,
  SessionMachineConfig,
  SessionState,
  Transition,
} from './types.js';

/**
 * The realtime session's transitions, as tables: a state, the events, and what the session becomes
 * and asks its adapters to do. The WebSocket end to end is realtime.int.test.ts.
 */

const T0 = Date.UTC(2026, 0, 1);
const CONFIG: SessionMachineConfig = {
  limits: { maxFrameBytes: 4096, maxSessionSeconds: 600, idleTimeoutSeconds: 30, credentialCheckSeconds: 5 },
  languages: ['en'],
  principal: { projectId: 'prj_1', environment: 'test', kind: 'api_key', expiresAt: null },
};
const IDENTITY = { sessionId: 'rts_own', resumeToken: 'rsm_own' };
const START = { type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 } };
const STREAM = { channel: 0 } as unknown as RecognizerStream;
const OTHER_STREAM = { channel: 1 } as unknown as RecognizerStream;

const text = (message: unknown): SessionEvent => {
  const raw = typeof message === 'string' ? message : JSON.stringify(message);
  return { type: 'frame', frame: { kind: 'text', parsed: parseRealtimeClientMessage(raw), byteLength: raw.length } };
};
/** `ms` of 16 kHz 16-bit mono. */
const audio = (ms: number, bytes = ms * 32): SessionEvent => {
  const data = new Uint8Array(bytes);
  return { type: 'frame', frame: { kind: 'audio', data, byteLength: bytes } };
};
const oversized = (byteLength: number): SessionEvent => ({ type: 'frame', frame: { kind: 'oversized', byteLength } });
const available: SessionEvent = { type: 'recognizer_checked', status: { available: true }, at: T0 };

function run(events: readonly SessionEvent[], from: SessionState, config = CONFIG): Transition {
  return events.reduce<Transition>(
    (sofar, event) => {
      const next = transition(config, sofar.state, event);
      return { state: next.state, commands: [...sofar.commands, ...next.commands] };
    },
    { state: from, commands: [] },
  );
}

const fresh = (config = CONFIG) => initialSession(config, IDENTITY).state;

/** A session streaming after a `start` (with `start`'s fields) and its events of the way there. */
function streaming(start: object = {}, config = CONFIG, streams = [STREAM]): SessionState {
  return run(
    [
      text({ ...START, ...start }),
      available,
      { type: 'streams_opened', streams, at: T0 },
      { type: 'session_stored', at: T0 },
    ],
    fresh(config),
    config,
  ).state;
}

const sent = (commands: readonly SessionCommand[]): RealtimeServerEvent[] =>
  commands.flatMap((command) => (command.type === 'send' ? [command.event] : []));
const others = (commands: readonly SessionCommand[]) => commands.filter((command) => command.type !== 'send');
const error = (code: string, message: unknown, fatal = false) => ({ type: 'error', code, message, fatal });
const final = (text: string, startMs: number, endMs: number): SessionEvent => ({
  type: 'recognizer_final',
  channel: 0,
  final: { text, startMs, endMs },
});

describe('the session machine: a new socket', () => {
  it('awaits its start with the idle timer running', () => {
    expect(initialSession(CONFIG, IDENTITY)).toEqual({
      state: { kind: 'awaiting_start', identity: IDENTITY },
      commands: [{ type: 'schedule', timer: { name: 'idle' }, ms: 30_000 }],
    });
  });

  it.each<[string, SessionEvent, object]>([
    [
      'audio',
      audio(10),
      error('audio_before_start', 'Send the start message, with the audio format, before any audio.'),
    ],
    ['a text frame that is not JSON', text('hello'), error('invalid_message', 'Text frames must be JSON messages.')],
    [
      'an unknown message type',
      text({ type: 'shout' }),
      error('unknown_message_type', 'type: must be one of start, finalize, pause, resume, keepalive, stop.'),
    ],
    [
      'an unsupported encoding',
      text({ type: 'start', audio: { encoding: 'opus', sampleRate: 16000 } }),
      error('unsupported_encoding', 'audio.encoding: must be one of pcm_s16le, pcm_f32le.'),
    ],
    ...(['finalize', 'pause', 'resume', 'stop'] as const).map((type): [string, SessionEvent, object] => [
      `${type} before start`,
      text({ type }),
      error('invalid_message', `type: ${type} is only valid after start.`),
    ]),
    [
      'an oversized frame',
      oversized(5000),
      error('frame_too_large', 'Frames may be at most 4096 bytes; this one had 5000 and was dropped.'),
    ],
    [
      'an unsupported language',
      text({ ...START, language: 'fr-FR' }),
      error('unsupported_language', 'language: this service transcribes en only; got fr-FR.'),
    ],
  ])('answers %s with a non-fatal error, restarting the idle timer', (_name, event, answer) => {
    const { state, commands } = run([event], fresh());
    expect(state).toEqual({ kind: 'awaiting_start', identity: IDENTITY });
    expect(commands).toEqual([
      { type: 'schedule', timer: { name: 'idle' }, ms: 30_000 },
      { type: 'send', event: answer },
    ]);
  });

  it('takes keepalive silently, and any language with a recognizer that serves any', () => {
    expect(sent(run([text({ type: 'keepalive' })], fresh()).commands)).toEqual([]);
    const any = { ...CONFIG, languages: 'any' } as const;
    expect(run([text({ ...START, language: 'fr-FR' })], fresh(any), any).state.kind).toBe('starting');
  });
});

describe('the session machine: start', () => {
  it('checks the recognizer, opens a stream per channel, stores the session, then says started', () => {
    const start = { ...START, audio: { ...START.audio, channels: 2 }, vocabulary: ['metoprolol'] };
    const parsed = parseRealtimeClientMessage(JSON.stringify(start));
    if (!parsed.ok || parsed.message.type !== 'start') throw new Error('the start does not parse');
    let step = run([text(start)], fresh());
    expect(step.state).toMatchObject({ kind: 'starting', step: { name: 'checking', resume: undefined } });
    expect(step.commands.at(-1)).toEqual({ type: 'check_recognizer' });
    step = run([available], step.state);
    expect(step).toMatchObject({
      state: { step: { name: 'opening' } },
      commands: [{ type: 'open_streams', start: parsed.message, cepstralMeans: [] }],
    });
    step = run([{ type: 'streams_opened', streams: [STREAM, OTHER_STREAM], at: T0 }], step.state);
    expect(step.commands).toEqual([
      { type: 'store_session', identity: IDENTITY, start: parsed.message, resumed: undefined, at: T0 },
    ]);
    step = run([{ type: 'session_stored', at: T0 + 5 }], step.state);
    expect(step.state).toMatchObject({
      kind: 'streaming',
      identity: IDENTITY,
      streaming: {
        framesReceived: 0,
        segments: 0,
        lastFinalEndMs: [0, 0],
        streamOffsetMs: [0, 0],
        committedMs: [0, 0],
        paused: false,
      },
    });
    expect(step.commands).toEqual([
      { type: 'attach_streams', streams: [STREAM, OTHER_STREAM] },
      {
        type: 'send',
        event: {
          type: 'started',
          sessionId: 'rts_own',
          resumeToken: 'rsm_own',
          resumed: false,
          credentialExpiresAt: null,
          audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 },
          limits: { maxSessionSeconds: 600, idleTimeoutSeconds: 30, keepaliveIntervalSeconds: 10, maxFrameBytes: 4096 },
        },
      },
      {
        type: 'log',
        level: 'info',
        message: 'realtime session started',
        fields: {
          sessionId: 'rts_own',
          projectId: 'prj_1',
          environment: 'test',
          credential: 'api_key',
          channels: 2,
          sampleRate: 16000,
          encoding: 'pcm_s16le',
        },
      },
      // A fifth of a 10-minute session is more than the minute's lead: the warning comes a minute ahead.
      { type: 'schedule', timer: { name: 'session_warning', remainingMs: 60_000 }, ms: 540_000 },
      { type: 'schedule', timer: { name: 'session_limit' }, ms: 600_000 },
      { type: 'schedule', timer: { name: 'credential_check' }, ms: 5000, repeat: true },
    ]);
  });

  it('answers the frames that arrived meanwhile once started, in order', () => {
    const { state, commands } = run(
      [
        text(START),
        audio(500),
        text({ type: 'shout' }),
        text(START),
        available,
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'session_stored', at: T0 },
      ],
      fresh(),
    );
    expect(state).toMatchObject({ kind: 'streaming', streaming: { framesReceived: 8000, acked: 1 } });
    // Nothing is committed yet, so the 500 ms step sends no ack.
    expect(sent(commands).map((event) => event.type)).toEqual(['started', 'error', 'error']);
    expect(sent(commands).slice(1)).toMatchObject([{ code: 'unknown_message_type' }, { code: 'already_started' }]);
  });

  it('fails the session when more than 8 MiB arrive while it starts', () => {
    const big = (bytes: number): SessionEvent => ({
      type: 'frame',
      frame: { kind: 'oversized', byteLength: bytes },
    });
    const { state, commands } = run([text(START), big(4 * 1024 * 1024), big(4 * 1024 * 1024), big(1)], fresh());
    expect(state.kind).toBe('closed');
    expect(others(commands).slice(-3)).toEqual([
      { type: 'clear_timers' },
      { type: 'close', code: 4004, reason: 'error' },
      { type: 'settled' },
    ]);
    expect(sent(commands)).toEqual([
      error(
        'recognizer_overloaded',
        'Audio arrived faster than the recognizer could start; the session is closed.',
        true,
      ),
    ]);
  });

  it.each([
    [
      'no recognizer at all',
      'no speech recognizer is configured',
      'apt-get install -y libpocketsphinx3 pocketsphinx-en-us',
    ],
    ['a broken one', 'the PocketSphinx library (x.so) is not installed', 'apt-get install -y libpocketsphinx3'],
  ])(
    'refuses start with recognizer_unavailable and its install hint for %s, and closes 1011',
    (_name, reason, hint) => {
      const { state, commands } = run(
        [
          text(START),
          audio(10),
          { type: 'recognizer_checked', status: { available: false, reason, installHint: hint }, at: T0 },
        ],
        fresh(),
      );
      expect(state.kind).toBe('closed');
      expect(sent(commands)).toEqual([
        error(
          'recognizer_unavailable',
          `The speech recognizer is unavailable (${reason}); install it with: ${hint}`,
          true,
        ),
      ]);
      expect(others(commands).slice(-3)).toEqual([
        { type: 'clear_timers' },
        { type: 'close', code: 1011, reason: 'error' },
        { type: 'settled' },
      ]);
    },
  );

  it('refuses a start whose credential already expired with credential_expired and 4002', () => {
    const config = { ...CONFIG, principal: { ...CONFIG.principal, expiresAt: T0 } };
    const { state, commands } = run([text(START), available], fresh(config), config);
    expect(state.kind).toBe('closed');
    expect(sent(commands)).toEqual([
      error('credential_expired', 'The credential that opened this socket has expired.', true),
    ]);
    expect(commands).toContainEqual({ type: 'close', code: 4002, reason: 'credential_expired' });
  });

  it.each<[RecognizerErrorCode, string, number]>([
    ['recognizer_unavailable', 'recognizer_unavailable', 1011],
    ['recognizer_crashed', 'recognizer_crashed', 1011],
    ['recognizer_failed', 'internal_error', 1011],
  ])('fails the start when a stream does not open (%s), as %s with %i', (code, sentCode, closeCode) => {
    const { state, commands } = run(
      [text(START), available, { type: 'streams_failed', code, message: 'no worker' }],
      fresh(),
    );
    expect(state.kind).toBe('closed');
    expect(sent(commands)).toEqual([error(sentCode, 'no worker', true)]);
    expect(commands).toContainEqual({ type: 'close', code: closeCode, reason: 'error' });
  });

  it('fails the start as internal_error when the session cannot be stored, ending its streams', () => {
    const failure = new Error('database down');
    const { state, commands } = run(
      [
        text(START),
        available,
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'failed', error: failure },
      ],
      fresh(),
    );
    expect(state.kind).toBe('closed');
    expect(commands.slice(-6)).toEqual([
      {
        type: 'log',
        level: 'error',
        message: 'realtime message handling failed',
        fields: { err: failure, sessionId: 'rts_own' },
      },
      { type: 'clear_timers' },
      { type: 'send', event: error('internal_error', 'Something went wrong on our side.', true) },
      { type: 'close', code: 1011, reason: 'error' },
      { type: 'end_streams', streams: [STREAM] },
      { type: 'settled' },
    ]);
  });

  it('ends streams that open after the socket closed, and ignores the rest of the start', () => {
    const { state, commands } = run(
      [
        text(START),
        available,
        { type: 'socket_closed' },
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'session_stored', at: T0 },
      ],
      fresh(),
    );
    expect(state).toEqual({ kind: 'closed', identity: IDENTITY });
    expect(commands.slice(-3)).toEqual([
      { type: 'clear_timers' },
      { type: 'settled' },
      { type: 'end_streams', streams: [STREAM] },
    ]);
  });

  it('ends the streams it holds when the socket closes while the session is being stored', () => {
    const { state, commands } = run(
      [text(START), available, { type: 'streams_opened', streams: [STREAM], at: T0 }, { type: 'socket_closed' }],
      fresh(),
    );
    expect(state.kind).toBe('closed');
    expect(commands.slice(-3)).toEqual([
      { type: 'clear_timers' },
      { type: 'end_streams', streams: [STREAM] },
      { type: 'settled' },
    ]);
  });
});

describe('the session machine: start with resume', () => {
  const resume = {
    sessionId: 'rts_stored',
    resumeToken: 'rsm_stored',
    lastAckedAudioMs: 1200,
    lastSegmentId: 'seg_000002',
  };
  const replayed: TranscriptSegment = withDisplay({
    id: 'seg_000003',
    text: 'go forward',
    startMs: 900,
    endMs: 1400,
    channel: 0,
    speaker: 'unknown',
  });
  const point: ResumePoint = {
    resumeToken: 'rsm_stored',
    createdAt: T0 - 120_000,
    replay: [replayed],
    lastSeq: 3,
    voicesBefore: 2,
    lastAckedAudioMs: 1200,
    decodeFromMs: [1500],
    cepstralMeans: [[48, 6, -9, 14, -5, -2, 4, -9, 4, -4, -1, 1, -6]],
    provisional: 'replace',
  };

  it('finds the session, claims its id, loads where it stopped, and continues its clock and numbering', () => {
    let step = run([text({ ...START, resume })], fresh());
    expect(step.state).toMatchObject({ kind: 'starting', step: { name: 'finding' } });
    expect(step.commands.at(-1)).toEqual({ type: 'find_resume', resume });
    step = run([{ type: 'resume_found', sessionId: 'rts_stored', heldElsewhere: false }], step.state);
    expect(step.state).toMatchObject({
      identity: { sessionId: 'rts_stored', resumeToken: 'rsm_own' },
      step: { name: 'loading', unclaimedId: 'rts_own' },
    });
    expect(step.commands).toEqual([
      {
        type: 'load_resume',
        sessionId: 'rts_stored',
        resume,
        format: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
      },
    ]);
    step = run([{ type: 'resume_loaded', point }, available], step.state);
    // The recognizer's stream starts from the cepstral mean the session had reached.
    expect(step.commands.at(-1)).toEqual({
      type: 'open_streams',
      start: expect.objectContaining({ type: 'start' }),
      cepstralMeans: point.cepstralMeans,
    });
    step = run([{ type: 'streams_opened', streams: [STREAM], at: T0 }], step.state);
    expect(step.commands.at(-1)).toMatchObject({
      type: 'store_session',
      resumed: { provisional: 'replace' },
      at: T0,
    });
    step = run([{ type: 'session_stored', at: T0 }], step.state);
    // The clock restarts where the resent audio begins; the recognizer decodes from where the point says.
    expect(step.state).toEqual({
      kind: 'streaming',
      identity: { sessionId: 'rts_stored', resumeToken: 'rsm_stored' },
      streaming: {
        format: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
        interimResults: true,
        paused: false,
        storageFailed: false,
        framesReceived: 19_200,
        segments: 3,
        voicesBefore: 2,
        lastFinalEndMs: [1500],
        streamOffsetMs: [1500],
        committedMs: [1500],
        cepstralMeans: point.cepstralMeans,
        unstored: [],
        transcribedMs: 1500,
        acked: 2,
        ackedMs: 1200,
        skipUntilFrames: [24_000],
        misalignedReported: false,
      },
    });
    expect(sent(step.commands)).toEqual([
      expect.objectContaining({ type: 'started', sessionId: 'rts_stored', resumeToken: 'rsm_stored', resumed: true }),
      { type: 'final', segment: replayed },
    ]);
    expect(step.commands).toContainEqual(
      expect.objectContaining({
        type: 'log',
        message: 'realtime session resumed',
        fields: expect.objectContaining({
          resumed: true,
          lastAckedAudioMs: 1200,
          decodeFromMs: [1500],
          provisional: 'replace',
          replayed: 1,
          lastSeq: 3,
        }) as unknown,
      }),
    );
    // The session's length counts from its first start: two of its ten minutes are gone.
    expect(step.commands).toContainEqual({ type: 'schedule', timer: { name: 'session_limit' }, ms: 480_000 });
  });

  it('numbers a resumed stream’s voices on from the stored ones, so a new S1 never joins another person’s label', () => {
    const resumed = run(
      [
        text({ ...START, resume }),
        { type: 'resume_found', sessionId: 'rts_stored', heldElsewhere: false },
        { type: 'resume_loaded', point },
        available,
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'session_stored', at: T0 },
      ],
      fresh(),
    ).state;
    const { commands } = run(
      [
        {
          type: 'recognizer_final',
          channel: 0,
          final: { text: 'any fever', startMs: 0, endMs: 800, speakerLabel: 'S1', speaker: 'clinician' },
        },
      ],
      resumed,
    );
    const [stored] = commands.flatMap((command) => (command.type === 'store_final' ? [command.segment] : []));
    expect(stored).toMatchObject({ id: 'seg_000004', speaker: 'clinician', speakerLabel: 'S3' });
  });
  it('counts resent audio it already transcribed without decoding it, and decodes the rest', () => {
    const resumed = run(
      [
        text({ ...START, resume }),
        { type: 'resume_found', sessionId: 'rts_stored', heldElsewhere: false },
        { type: 'resume_loaded', point },
        available,
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'session_stored', at: T0 },
      ],
      fresh(),
    ).state;
    // 1200 → 1400 ms lies wholly before 1500, where the transcript stopped: counted only.
    const early = run([audio(200)], resumed);
    expect(early.commands.map((command) => command.type)).toEqual(['schedule']);
    expect(early.state).toMatchObject({ streaming: { framesReceived: 22_400 } });
    // 1400 → 1900 ms: the 100 ms before 1500 are skipped, the rest decoded.
    const { state, commands } = run([audio(500)], early.state);
    const write = commands.find((command) => command.type === 'write_audio');
    expect(write?.data.byteLength).toBe(500 * 32);
    expect(write?.skip).toEqual([1600]);
    // Committed to 1500 (where the decode starts) and not past it: the ack says so.
    expect(sent(commands)).toEqual([{ type: 'ack', audioMs: 1500 }]);
    expect(state).toMatchObject({ streaming: { framesReceived: 30_400, acked: 3, ackedMs: 1500 } });
  });

  it.each([
    ['the lookup refuses it', [{ type: 'resume_refused', message: 'No resumable session.' }], 'No resumable session.'],
    [
      'another socket of this instance carries it',
      [{ type: 'resume_found', sessionId: 'rts_stored', heldElsewhere: true }],
      'The session is still open on another socket; retry once that socket has closed.',
    ],
    [
      'it cannot continue once claimed',
      [
        { type: 'resume_found', sessionId: 'rts_stored', heldElsewhere: false },
        { type: 'resume_refused', message: 'The session ended (stopped) and cannot be resumed; start a new one.' },
      ],
      'The session ended (stopped) and cannot be resumed; start a new one.',
    ],
  ] as const)(
    'refuses the resume when %s, non-fatally and under its own id, then answers what waited',
    (_name, events, message) => {
      const { state, commands } = run([text({ ...START, resume }), audio(10), ...events], fresh());
      expect(state).toEqual({ kind: 'awaiting_start', identity: IDENTITY });
      expect(sent(commands)).toEqual([
        error('resume_failed', message),
        error('audio_before_start', 'Send the start message, with the audio format, before any audio.'),
      ]);
      // Then a start without resume opens a new session on the same socket.
      expect(run([text(START)], state).state.kind).toBe('starting');
    },
  );
});

describe('the session machine: streaming', () => {
  it('acknowledges how far the audio is committed and its finals stored, each time that moves on', () => {
    const committed = (channel: number, ms: number): SessionEvent => ({ type: 'recognizer_committed', channel, ms });
    const { state, commands } = run(
      [
        audio(300),
        audio(300),
        committed(0, 400),
        audio(300),
        final('go forward', 450, 800),
        audio(200),
        { type: 'final_stored', seq: 1 },
        { type: 'recognizer_partial', channel: 0, text: 'ten' },
        audio(500),
        committed(0, 20_000),
        audio(500),
      ],
      streaming(),
    );
    expect(commands.filter((command) => command.type === 'write_audio')).toHaveLength(6);
    // 600 ms: nothing committed. 400 ms committed is less than a 500 ms step: no ack of its own, and
    // 900 ms is no new step. 1100 ms: the final is not stored yet, so only up to its start. Once it
    // is stored, at once its end. 1600 ms: the utterance after it is open, nothing new. The
    // recognizer commits far ahead: acknowledged, never past the audio received.
    expect(sent(commands).filter((event) => event.type === 'ack')).toEqual([
      { type: 'ack', audioMs: 450 },
      { type: 'ack', audioMs: 800 },
      { type: 'ack', audioMs: 1600 },
      { type: 'ack', audioMs: 2100 },
    ]);
    expect(state).toMatchObject({ streaming: { framesReceived: 33_600, acked: 4, ackedMs: 2100, unstored: [] } });
  });

  it('acknowledges two channels at the lower of their committed positions', () => {
    const { commands } = run(
      [
        { type: 'recognizer_committed', channel: 0, ms: 900 },
        { type: 'recognizer_committed', channel: 1, ms: 300 },
        audio(500, 500 * 64),
        { type: 'recognizer_committed', channel: 1, ms: 1200 },
        audio(500, 500 * 64),
      ],
      streaming({ audio: { ...START.audio, channels: 2 } }, CONFIG, [STREAM, OTHER_STREAM]),
    );
    expect(sent(commands)).toEqual([
      { type: 'ack', audioMs: 300 },
      { type: 'ack', audioMs: 900 },
    ]);
  });

  it('drops a burst of misaligned audio with one non-fatal error, and reports the next burst again', () => {
    const before = streaming();
    const misaligned = error(
      'misaligned_audio',
      'pcm_s16le audio with 1 channel(s) comes in multiples of 2 bytes; this frame had 3 and was dropped ' +
        '(so are the misaligned frames after it, without another error, until an aligned one comes).',
    );
    const burst = run([audio(0, 3), audio(0, 5), audio(0, 7), audio(0, 3)], before);
    expect(sent(burst.commands)).toEqual([misaligned]);
    expect(burst.commands.filter((command) => command.type === 'write_audio')).toEqual([]);
    expect(before).toMatchObject({ streaming: { framesReceived: 0, misalignedReported: false } });
    expect(burst.state).toMatchObject({ streaming: { framesReceived: 0, misalignedReported: true } });
    // An aligned frame is taken and ends the burst; the next misaligned one is reported again.
    const next = run([audio(500), audio(0, 3), audio(0, 3)], burst.state);
    expect(sent(next.commands)).toEqual([misaligned]);
    expect(next.commands.filter((command) => command.type === 'write_audio')).toHaveLength(1);
    expect(next.state).toMatchObject({ streaming: { framesReceived: 8000, misalignedReported: true } });
  });

  it.each([
    [
      'an oversized frame',
      oversized(4097),
      error('frame_too_large', 'Frames may be at most 4096 bytes; this one had 4097 and was dropped.'),
    ],
    [
      'a second start',
      text(START),
      error('already_started', 'This session has already started; send start once per socket.'),
    ],
    ['an invalid message', text({ type: 'stop', now: true }), error('invalid_message', 'now: is not a known field')],
  ])('drops %s with a non-fatal error and carries on', (_name, event, answer) => {
    const before = streaming();
    const { state, commands } = run([event], before);
    expect(state).toEqual(before);
    expect(commands).toEqual([
      { type: 'schedule', timer: { name: 'idle' }, ms: 30_000 },
      { type: 'send', event: answer },
    ]);
  });

  it('finalizes on finalize and on pause, drops audio while paused, and takes it again after resume', () => {
    const { state, commands } = run(
      [text({ type: 'finalize' }), text({ type: 'pause' }), audio(1000), text({ type: 'resume' }), audio(500)],
      streaming(),
    );
    expect(others(commands).filter((command) => command.type !== 'schedule')).toEqual([
      { type: 'finalize_streams' },
      { type: 'finalize_streams' },
      {
        type: 'write_audio',
        format: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
        data: expect.any(Uint8Array),
        skip: [0],
      },
    ]);
    expect(state).toMatchObject({ streaming: { paused: false, framesReceived: 8000 } });
  });

  it('sends partials with interim results, from the end of the channel’s last final, and not blank ones', () => {
    const { commands } = run(
      [
        { type: 'recognizer_partial', channel: 0, text: 'go' },
        { type: 'recognizer_partial', channel: 0, text: '  ' },
        final('go forward', 100, 900),
        { type: 'recognizer_partial', channel: 0, text: 'ten' },
      ],
      streaming(),
    );
    expect(sent(commands)).toEqual([
      { type: 'partial', text: 'go', startMs: 0, channel: 0 },
      { type: 'partial', text: 'ten', startMs: 900, channel: 0 },
    ]);
    expect(
      sent(
        run([{ type: 'recognizer_partial', channel: 0, text: 'go' }], streaming({ interimResults: false })).commands,
      ),
    ).toEqual([]);
  });

  it('numbers finals and hands them to be stored with the cepstral means after them, then sent; it sends none itself, and skips empty ones', () => {
    const { state, commands } = run(
      [
        { type: 'recognizer_final', channel: 0, final: { text: ' ', startMs: 0, endMs: 10 } },
        {
          type: 'recognizer_final',
          channel: 1,
          final: {
            text: 'it hurts',
            startMs: 100,
            endMs: 900,
            words: [{ word: 'it', startMs: 100, endMs: 300, confidence: 0.9 }],
            cepstralMean: [0.5, -0.25],
          },
        },
        final('go forward', 200, 1000),
      ],
      streaming({ audio: { ...START.audio, channels: 2 } }, CONFIG, [STREAM, OTHER_STREAM]),
    );
    expect(commands).toEqual([
      {
        type: 'store_final',
        sessionId: 'rts_own',
        seq: 1,
        segment: {
          id: 'seg_000001',
          text: 'it hurts',
          display: 'It hurts.',
          displayTokens: [
            { text: 'It', wordStart: 0, wordEnd: 1 },
            { text: 'hurts.', wordStart: 1, wordEnd: 2 },
          ],
          startMs: 100,
          endMs: 900,
          channel: 1,
          speaker: 'patient',
          speakerLabel: 'S2',
          words: [{ word: 'it', startMs: 100, endMs: 300, confidence: 0.9 }],
        },
        provisional: false,
        cepstralMeans: [null, [0.5, -0.25]],
      },
      {
        type: 'store_final',
        sessionId: 'rts_own',
        seq: 2,
        segment: {
          id: 'seg_000002',
          text: 'go forward',
          display: 'Go forward.',
          displayTokens: [
            { text: 'Go', wordStart: 0, wordEnd: 1 },
            { text: 'forward.', wordStart: 1, wordEnd: 2 },
          ],
          startMs: 200,
          endMs: 1000,
          channel: 0,
          speaker: 'clinician',
          speakerLabel: 'S1',
        },
        provisional: false,
        cepstralMeans: [null, [0.5, -0.25]],
      },
    ]);
    expect(state).toMatchObject({ streaming: { segments: 2, lastFinalEndMs: [1000, 900], committedMs: [1000, 900] } });
  });

  it('marks the words that change the chart when they were heard with low confidence, and only those', () => {
    const words = [
      { word: 'now', startMs: 0, endMs: 200, confidence: 0.4 },
      { word: 'fever', startMs: 200, endMs: 600, confidence: 0.3 },
      { word: 'left', startMs: 600, endMs: 900, confidence: 0.95 },
      { word: 'diastolic', startMs: 900, endMs: 1400, confidence: 0.5 },
    ];
    const { commands } = run(
      [
        {
          type: 'recognizer_final',
          channel: 0,
          final: { text: 'now fever left diastolic', startMs: 0, endMs: 1400, words },
        },
      ],
      streaming(),
    );
    const [stored] = commands.flatMap((command) => (command.type === 'store_final' ? [command.segment] : []));
    expect(stored?.words?.map((word) => word.review ?? null)).toEqual(['negation', null, null, 'measure']);
  });

  it('takes the voice and role a diarizing engine gave a one-channel final, and the channel’s on two channels', () => {
    const segments = (channels: 1 | 2, finalEvent: Extract<SessionEvent, { type: 'recognizer_final' }>['final']) =>
      run(
        [{ type: 'recognizer_final', channel: 0, final: finalEvent }],
        streaming({ audio: { ...START.audio, channels } }, CONFIG, channels === 2 ? [STREAM, OTHER_STREAM] : [STREAM]),
      ).commands.flatMap((command) =>
        command.type === 'store_final' ? [[command.segment.speaker, command.segment.speakerLabel]] : [],
      );
    const heard = { text: 'do you smoke', startMs: 0, endMs: 900 };
    expect(segments(1, heard)).toEqual([['unknown', undefined]]);
    expect(segments(1, { ...heard, speakerLabel: 'S2', speaker: 'patient' })).toEqual([['patient', 'S2']]);
    expect(segments(1, { ...heard, speakerLabel: 'S3' })).toEqual([['unknown', 'S3']]);
    expect(segments(2, heard)).toEqual([['clinician', 'S1']]);
    // A channel carries one person: what a diarizer made of it never overrides that.
    expect(segments(2, { ...heard, speakerLabel: 'S2', speaker: 'patient' })).toEqual([['clinician', 'S1']]);
  });

  it('warns ahead of the session limit and ends at it with session_limit and 4001', () => {
    const warned = run([{ type: 'timer', timer: { name: 'session_warning', remainingMs: 59_999.6 } }], streaming());
    expect(sent(warned.commands)).toEqual([
      {
        type: 'warning',
        code: 'session_limit_approaching',
        message: 'The session reaches its maximum length soon.',
        remainingMs: 60_000,
      },
    ]);
    const ended = run([{ type: 'timer', timer: { name: 'session_limit' } }], warned.state);
    expect(ended.state).toMatchObject({
      kind: 'ending',
      ending: { path: 'finish', reason: 'session_limit', closeCode: 4001 },
    });
    expect(sent(ended.commands)).toEqual([
      error('session_limit', 'The session reached its maximum length of 600 s.', true),
    ]);
  });

  it('warns a fifth of a short session ahead, and never before it started', () => {
    const config = { ...CONFIG, limits: { ...CONFIG.limits, maxSessionSeconds: 1 } };
    const { commands } = run(
      [
        text(START),
        available,
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'session_stored', at: T0 },
      ],
      fresh(config),
      config,
    );
    expect(commands).toContainEqual({
      type: 'schedule',
      timer: { name: 'session_warning', remainingMs: 200 },
      ms: 800,
    });
  });

  it('warns ahead of the credential’s expiry and ends at it with credential_expired and 4002', () => {
    const config = {
      ...CONFIG,
      principal: { ...CONFIG.principal, kind: 'realtime_token', expiresAt: T0 + 1000 },
    } as const;
    const { state, commands } = run(
      [
        text(START),
        available,
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'session_stored', at: T0 },
      ],
      fresh(config),
      config,
    );
    expect(sent(commands)[0]).toMatchObject({ credentialExpiresAt: new Date(T0 + 1000).toISOString() });
    expect(commands.slice(-2)).toEqual([
      { type: 'schedule', timer: { name: 'credential_warning', remainingMs: 1000 }, ms: 0 },
      { type: 'schedule', timer: { name: 'credential_expiry' }, ms: 1000 },
    ]);
    const warned = run([{ type: 'timer', timer: { name: 'credential_warning', remainingMs: 1000 } }], state, config);
    expect(sent(warned.commands)).toEqual([
      {
        type: 'warning',
        code: 'credential_expiring',
        message: 'The credential that opened this socket expires soon; open a new session with a fresh one.',
        remainingMs: 1000,
      },
    ]);
    const expired = run([{ type: 'timer', timer: { name: 'credential_expiry' } }], warned.state, config);
    expect(expired.state).toMatchObject({ ending: { reason: 'credential_expired', closeCode: 4002 } });
    expect(sent(expired.commands)).toEqual([
      error('credential_expired', 'The credential that opened this socket expired.', true),
    ]);
  });

  it('schedules no credential timer that could not fire before setTimeout’s limit', () => {
    const config = { ...CONFIG, principal: { ...CONFIG.principal, expiresAt: T0 + 2 ** 31 } };
    const { commands } = run(
      [
        text(START),
        available,
        { type: 'streams_opened', streams: [STREAM], at: T0 },
        { type: 'session_stored', at: T0 },
      ],
      fresh(config),
      config,
    );
    expect(commands.filter((command) => command.type === 'schedule').map((command) => command.timer.name)).toEqual([
      'idle',
      'session_warning',
      'session_limit',
      'credential_check',
    ]);
  });

  it('re-checks its credential, and ends with credential_expired and 4002 once it is revoked', () => {
    const checked = run([{ type: 'timer', timer: { name: 'credential_check' } }], streaming());
    expect(checked.commands).toEqual([{ type: 'revalidate' }]);
    const revoked = run([{ type: 'credential_revoked' }], checked.state);
    expect(revoked.state).toMatchObject({ ending: { reason: 'credential_expired', closeCode: 4002 } });
    expect(sent(revoked.commands)).toEqual([
      error('credential_expired', 'The credential that opened this socket was revoked or expired.', true),
    ]);
  });

  it.each([
    ['recognizer_overloaded', 'recognizer_overloaded', 4004],
    ['recognizer_crashed', 'recognizer_crashed', 1011],
    ['recognizer_unavailable', 'recognizer_unavailable', 1011],
    ['recognizer_failed', 'internal_error', 1011],
  ] as const)(
    'ends on a recognizer failure mid-stream (%s) as %s, closing %i after its last finals',
    (code, sentCode, closeCode) => {
      const { state, commands } = run([{ type: 'recognizer_error', code, message: 'it broke' }], streaming());
      expect(state).toMatchObject({
        kind: 'ending',
        phase: 'flushing',
        ending: { path: 'finish', reason: 'error', closeCode },
      });
      expect(commands).toEqual([
        { type: 'clear_timers' },
        { type: 'send', event: error(sentCode, 'it broke', true) },
        { type: 'flush_streams' },
        { type: 'schedule', timer: { name: 'flush' }, ms: 10_000 },
      ]);
    },
  );

  it('ends as internal_error when a segment cannot be stored, so the client resumes', () => {
    const { state, commands } = run([final('go', 0, 500), { type: 'storage_failed' }], streaming());
    expect(state).toMatchObject({ kind: 'ending', transcript: { storageFailed: true }, ending: { closeCode: 1011 } });
    expect(sent(commands)).toEqual([
      error('internal_error', 'A transcript segment could not be stored; resume the session to continue.', true),
    ]);
  });

  it('ends with idle_timeout and 4000 when nothing arrives, started or not', () => {
    const idle = { type: 'timer', timer: { name: 'idle' } } as const;
    const message = 'Nothing arrived for 30 s; send keepalive while there is no audio.';
    const before = run([idle], fresh());
    expect(before.state.kind).toBe('closed');
    expect(before.commands).toEqual([
      { type: 'clear_timers' },
      { type: 'send', event: error('idle_timeout', message, true) },
      { type: 'close', code: 4000, reason: 'idle_timeout' },
      { type: 'settled' },
    ]);
    const after = run([idle], streaming());
    expect(after.state).toMatchObject({ kind: 'ending', ending: { reason: 'idle_timeout', closeCode: 4000 } });
  });

  it('waits through idle timeouts while the service is still opening its streams, up to three, then ends as overloaded', () => {
    const idle = { type: 'timer', timer: { name: 'idle' } } as const;
    const opening = run([text(START), available], fresh()).state;
    expect(opening).toMatchObject({ kind: 'starting', step: { name: 'opening' } });
    // The client waits for `started`: its silence meanwhile is the service's slowness.
    const waited = run([idle, idle, idle], opening);
    expect(waited.state).toMatchObject({ kind: 'starting', slowStartWaits: 3 });
    expect(waited.commands).toEqual(Array(3).fill({ type: 'schedule', timer: { name: 'idle' }, ms: 30_000 }));
    const gaveUp = run([idle], waited.state);
    expect(gaveUp.state.kind).toBe('closed');
    expect(gaveUp.commands).toEqual([
      { type: 'clear_timers' },
      {
        type: 'send',
        event: error(
          'recognizer_overloaded',
          'The recognizer could not start this session within 120 s; retry later.',
          true,
        ),
      },
      { type: 'close', code: 4004, reason: 'error' },
      { type: 'settled' },
    ]);
  });
});

describe('the session machine: endings', () => {
  it('stops: flushes, stores the finals that arrive meanwhile, records the end, then says ended and closes 1000', () => {
    const stopping = run([audio(1000), text({ type: 'stop' })], streaming());
    expect(stopping.state).toMatchObject({
      kind: 'ending',
      phase: 'flushing',
      ending: { path: 'finish', reason: 'stopped', closeCode: 1000 },
    });
    expect(stopping.commands.slice(-3)).toEqual([
      { type: 'clear_timers' },
      { type: 'flush_streams' },
      { type: 'schedule', timer: { name: 'flush' }, ms: 10_000 },
    ]);
    const flushed = run(
      [
        final('go forward', 0, 900),
        { type: 'recognizer_partial', channel: 0, text: 'late' },
        { type: 'final_stored', seq: 1 },
        { type: 'flushed' },
      ],
      stopping.state,
    );
    expect(flushed.commands).toEqual([
      expect.objectContaining({ type: 'store_final', seq: 1, provisional: false }),
      { type: 'clear_timer', name: 'flush' },
      { type: 'drain_finals' },
    ]);
    const drained = run([{ type: 'drained' }], flushed.state);
    expect(drained.commands).toEqual([
      {
        type: 'record_end',
        sessionId: 'rts_own',
        reason: 'stopped',
        transcribedMs: 1000,
        committedMs: [900],
        cepstralMeans: [],
      },
    ]);
    // The record is being stored: a recognizer final now is too late.
    expect(run([final('too late', 0, 10)], drained.state).commands).toEqual([]);
    const recorded = run([{ type: 'recorded' }], drained.state);
    expect(recorded).toEqual({
      state: { kind: 'closed', identity: IDENTITY },
      commands: [
        { type: 'send', event: { type: 'ended', sessionId: 'rts_own', reason: 'stopped', audioMs: 1000, segments: 1 } },
        {
          type: 'log',
          level: 'info',
          message: 'realtime session ended',
          fields: { sessionId: 'rts_own', reason: 'stopped', audioMs: 1000, segments: 1 },
        },
        { type: 'close', code: 1000, reason: 'stopped' },
        { type: 'settled' },
      ],
    });
  });

  it('moves on when the flush times out, leaving the transcribed audio where it was', () => {
    const { commands } = run(
      [
        audio(1000),
        text({ type: 'stop' }),
        { type: 'timer', timer: { name: 'flush' } },
        { type: 'flushed' },
        { type: 'drained' },
      ],
      streaming(),
    );
    expect(commands.slice(-2)).toEqual([
      { type: 'drain_finals' },
      {
        type: 'record_end',
        sessionId: 'rts_own',
        reason: 'stopped',
        transcribedMs: 0,
        committedMs: [0],
        cepstralMeans: [],
      },
    ]);
  });

  it('leaves the transcribed audio where it was, and the committed before the lost final, when a segment could not be stored during the flush', () => {
    const { commands } = run(
      [
        audio(1000),
        text({ type: 'stop' }),
        final('go forward', 300, 900),
        { type: 'storage_failed' },
        { type: 'flushed' },
        { type: 'drained' },
      ],
      streaming(),
    );
    expect(sent(commands).filter((event) => event.type === 'error')).toEqual([]);
    expect(commands.at(-1)).toEqual({
      type: 'record_end',
      sessionId: 'rts_own',
      reason: 'stopped',
      transcribedMs: 0,
      committedMs: [300],
      cepstralMeans: [],
    });
  });

  it('on a lost socket, stores the last finals as provisional (sending nothing) and the session for a resume', () => {
    const { state, commands } = run(
      [
        { type: 'recognizer_committed', channel: 0, ms: 120 },
        audio(1000),
        { type: 'socket_closed' },
        {
          type: 'recognizer_final',
          channel: 0,
          final: { text: 'go forward', startMs: 150, endMs: 900, cepstralMean: [47, 5] },
        },
        { type: 'flushed' },
        { type: 'drained' },
        { type: 'recorded' },
      ],
      streaming(),
    );
    expect(state.kind).toBe('closed');
    // After the audio's idle timer, write and ack (of the 120 ms committed):
    expect(commands.slice(3)).toEqual([
      { type: 'clear_timers' },
      { type: 'flush_streams' },
      { type: 'schedule', timer: { name: 'flush' }, ms: 10_000 },
      expect.objectContaining({ type: 'store_final', seq: 1, provisional: true }),
      { type: 'clear_timer', name: 'flush' },
      { type: 'drain_finals' },
      // The open utterance's provisional final commits nothing: a resume decodes it again from 120 ms.
      {
        type: 'record_interruption',
        sessionId: 'rts_own',
        transcribedMs: 1000,
        committedMs: [120],
        // The mean the recognizer reached, for the resume to start from.
        cepstralMeans: [[47, 5]],
      },
      {
        type: 'log',
        level: 'info',
        message: 'realtime session lost its socket',
        fields: { sessionId: 'rts_own', audioMs: 1000, segments: 1 },
      },
      { type: 'settled' },
    ]);
  });

  it('on server shutdown, says ended and closes 1001 at once, then stores the last finals', () => {
    const { state, commands } = run(
      [
        { type: 'recognizer_committed', channel: 0, ms: 120 },
        audio(1000),
        { type: 'shutdown' },
        final('go', 150, 900),
        { type: 'flushed' },
        { type: 'drained' },
        { type: 'recorded' },
      ],
      streaming(),
    );
    expect(state.kind).toBe('closed');
    expect(commands.slice(3)).toEqual([
      { type: 'clear_timers' },
      {
        type: 'send',
        event: { type: 'ended', sessionId: 'rts_own', reason: 'server_shutdown', audioMs: 1000, segments: 0 },
      },
      { type: 'close', code: 1001, reason: 'server_shutdown' },
      { type: 'flush_streams' },
      { type: 'schedule', timer: { name: 'flush' }, ms: 10_000 },
      expect.objectContaining({ type: 'store_final', provisional: true }),
      { type: 'clear_timer', name: 'flush' },
      { type: 'drain_finals' },
      {
        type: 'record_end',
        sessionId: 'rts_own',
        reason: 'server_shutdown',
        transcribedMs: 1000,
        committedMs: [120],
        cepstralMeans: [],
      },
      { type: 'settled' },
    ]);
  });

  it('on server shutdown before start, closes 1001 without ended', () => {
    expect(run([{ type: 'shutdown' }], fresh()).commands).toEqual([
      { type: 'clear_timers' },
      { type: 'close', code: 1001, reason: 'server_shutdown' },
      { type: 'settled' },
    ]);
  });

  it('on a lost socket before start, just stops its timers', () => {
    expect(run([{ type: 'socket_closed' }], fresh())).toEqual({
      state: { kind: 'closed', identity: IDENTITY },
      commands: [{ type: 'clear_timers' }, { type: 'settled' }],
    });
  });

  it.each([
    ['while ending', run([text({ type: 'stop' })], streaming()).state],
    ['once closed', run([{ type: 'socket_closed' }], fresh()).state],
  ])('takes no message, timer, recognizer error, limit or second ending %s', (_name, state) => {
    const { state: after, commands } = run(
      [
        audio(100),
        text({ type: 'stop' }),
        text('garbage'),
        oversized(10_000),
        { type: 'timer', timer: { name: 'idle' } },
        { type: 'timer', timer: { name: 'session_limit' } },
        { type: 'credential_revoked' },
        { type: 'recognizer_error', code: 'recognizer_crashed', message: 'late' },
        { type: 'recognizer_partial', channel: 0, text: 'late' },
        { type: 'shutdown' },
        { type: 'socket_closed' },
      ],
      state,
    );
    expect(after).toEqual(state);
    expect(commands).toEqual([]);
  });

  it('logs a failure of an adapter during an ending, and carries on ending', () => {
    const failure = new Error('stream did not end');
    const stopping = run([text({ type: 'stop' })], streaming()).state;
    const { state, commands } = run([{ type: 'failed', error: failure }], stopping);
    expect(state).toEqual(stopping);
    expect(commands).toEqual([
      {
        type: 'log',
        level: 'error',
        message: 'realtime message handling failed',
        fields: { err: failure, sessionId: 'rts_own' },
      },
    ]);
  });
});
