/**
 * One realtime transcription session on one WebSocket. What it does is decided by the state
 * machine (session-machine/); this shell feeds it the socket's frames, the adapters' results and
 * the timers, and carries out its commands: socket I/O, timers, the recognizer streams, the resume
 * lookup, and the store (every `final` stored before it is sent). Nothing here logs a transcript.
 */
import { randomBytes } from 'node:crypto';

import { parseRealtimeClientMessage, type RealtimeServerEvent } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';

import type { Recognizer } from '../asr/recognizer.js';
import type { Principal } from '../auth/principal.js';
import { generateSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { RealtimeConfig } from '../config/config.js';
import { RecognizerChannels } from './recognizer-channels.js';
import type { ConnectionOrigin, RealtimeAudit } from '../audit/realtime-audit.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { RealtimeMetrics } from './realtime-metrics.js';
import { ResumeLookup } from './resume-lookup.js';
import {
  initialSession,
  transition,
  type Frame,
  type SessionCommand,
  type SessionEvent,
  type SessionMachineConfig,
  type SessionState,
} from './session-machine/index.js';
import { SessionRecords, type Progress, type RealtimeStore } from './session-records.js';
import { SessionTimers } from './session-timers.js';
import { TranscriptPipeline } from './transcript-pipeline.js';

type CommandOf<T extends SessionCommand['type']> = Extract<SessionCommand, { type: T }>;

/** The part of a `ws` socket a session uses. */
export type RealtimeSocket = Pick<WebSocket, 'on' | 'send' | 'close' | 'readyState' | 'OPEN'>;

/** The instance's sessions, as a resume sees them. */
export interface RealtimeSessionRegistry {
  /** True when an open socket of this instance (other than `except`) carries session `id`. */
  holds(id: string, except?: RealtimeSession): boolean;
  /** Resolves once a session of this instance that lost its socket has stored its last segments. */
  settled(id: string): Promise<void>;
}

export interface RealtimeSessionDependencies {
  recognizer: Recognizer;
  clock: Clock;
  config: RealtimeConfig;
  logger: FastifyBaseLogger;
  store: RealtimeStore;
  registry: RealtimeSessionRegistry;
  /** Throws when the credential that opened the socket no longer authenticates (revoked, expired). */
  revalidate: () => Promise<void>;
  audit: RealtimeAudit;
  origin: ConnectionOrigin;
  usage: UsageRecorder;
  realtimeMetrics: RealtimeMetrics;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** A frame read as far as the machine needs: one over the limit is not read at all. */
/** What a `record_end` or `record_interruption` stores of how far the session got. */
function progressOf(command: Progress): Progress {
  const { transcribedMs, committedMs, cepstralMeans } = command;
  return { transcribedMs, committedMs, cepstralMeans };
}

function frameOf(data: Buffer, isBinary: boolean, maxFrameBytes: number): Frame {
  const byteLength = data.byteLength;
  if (byteLength > maxFrameBytes) return { kind: 'oversized', byteLength };
  if (isBinary) return { kind: 'audio', data, byteLength };
  return { kind: 'text', parsed: parseRealtimeClientMessage(data.toString('utf8')), byteLength };
}

export class RealtimeSession {
  #state: SessionState;
  readonly #machine: SessionMachineConfig;
  readonly #timers: SessionTimers;
  readonly #channels: RecognizerChannels;
  readonly #finals: TranscriptPipeline;
  readonly #records: SessionRecords;
  readonly #resume: ResumeLookup;
  readonly #settled: Promise<void>;
  #settle: () => void = () => undefined;

  constructor(
    private readonly socket: RealtimeSocket,
    readonly principal: Principal,
    private readonly deps: RealtimeSessionDependencies,
    private readonly onClosed: (session: RealtimeSession) => void,
  ) {
    const { config, store, clock, logger } = deps;
    this.#machine = {
      limits: config,
      languages: deps.recognizer.languages,
      principal,
    };
    this.#settled = new Promise((resolve) => (this.#settle = resolve));
    const dispatch = (event: SessionEvent) => {
      this.dispatch(event);
    };
    this.#timers = new SessionTimers((timer) => dispatch({ type: 'timer', timer }));
    this.#channels = new RecognizerChannels(deps.recognizer, dispatch);
    this.#finals = new TranscriptPipeline({
      segments: store.segments,
      corrections: store.corrections,
      clock,
      logger,
      send: (event) => this.send(event),
      failed: () => dispatch({ type: 'storage_failed' }),
      stored: (seq) => dispatch({ type: 'final_stored', seq }),
    });
    this.#records = new SessionRecords(
      {
        store,
        clock,
        logger,
        audit: deps.audit,
        origin: deps.origin,
        usage: deps.usage,
        metrics: deps.realtimeMetrics,
      },
      principal,
    );
    this.#resume = new ResumeLookup(
      { store, clock, maxSessionSeconds: config.maxSessionSeconds, settled: (id) => deps.registry.settled(id) },
      principal,
    );
    const initial = initialSession(this.#machine, {
      sessionId: `rts_${randomBytes(12).toString('base64url')}`,
      resumeToken: generateSecret('rsm_'),
    });
    this.#state = initial.state;
    this.run(initial.commands);
    socket.on('message', (data, isBinary) => {
      dispatch({ type: 'frame', frame: frameOf(toBuffer(data), isBinary, config.maxFrameBytes) });
    });
    socket.on('close', () => {
      dispatch({ type: 'socket_closed' });
      this.onClosed(this);
    });
  }

  get id(): string {
    return this.#state.identity.sessionId;
  }

  /** Resolves once the session stored everything it will store (its ending, or its lost socket's flush). */
  done(): Promise<void> {
    const { kind } = this.#state;
    return kind === 'ending' || kind === 'closed' ? this.#settled : Promise.resolve();
  }

  /** Its credential stopped counting (the encounter's consent was withdrawn): it ends as a revoked one does. */
  credentialRevoked(): void {
    this.dispatch({ type: 'credential_revoked' });
  }

  /** Server shutdown: `ended` and 1001 at once; the last finals are stored (not sent) for a resume. */
  shutdown(): void {
    this.dispatch({ type: 'shutdown' });
  }

  /**
   * The state moves first, then its commands run in order. A command may report back at once (a
   * stream failing as it is written): that event sees the new state, and its commands run there.
   */
  private dispatch(event: SessionEvent): void {
    const next = transition(this.#machine, this.#state, event);
    this.#state = next.state;
    this.run(next.commands);
  }

  private run(commands: readonly SessionCommand[]): void {
    for (const command of commands) {
      try {
        this.execute(command);
      } catch (error) {
        this.dispatch({ type: 'failed', error });
      }
    }
  }

  /** Carries out `promise`, then reports its outcome as an event; a rejection is a failure of ours. */
  private report<T>(promise: Promise<T>, eventOf: (value: T) => SessionEvent): void {
    promise.then(
      (value) => {
        this.dispatch(eventOf(value));
      },
      (error: unknown) => {
        this.dispatch({ type: 'failed', error });
      },
    );
  }

  private execute(command: SessionCommand): void {
    switch (command.type) {
      case 'send':
        this.send(command.event);
        return;
      case 'close':
        if (this.socket.readyState === this.socket.OPEN) this.socket.close(command.code, command.reason);
        return;
      case 'log':
        this.deps.logger[command.level](command.fields, command.message);
        return;
      case 'settled':
        this.#settle();
        return;
      case 'schedule':
        this.#timers.schedule(command.timer, command.ms, command.repeat === true);
        return;
      case 'clear_timer':
        this.#timers.clear(command.name);
        return;
      case 'clear_timers':
        this.#timers.clearAll();
        return;
      case 'find_resume':
      case 'load_resume':
      case 'check_recognizer':
      case 'open_streams':
      case 'end_streams':
      case 'store_session':
        this.starting(command);
        return;
      case 'attach_streams':
      case 'write_audio':
      case 'finalize_streams':
      case 'flush_streams':
      case 'store_final':
      case 'drain_finals':
      case 'record_end':
      case 'record_interruption':
      case 'revalidate':
        this.streaming(command);
        return;
    }
  }

  /** The steps from `start` to `started`. */
  private starting(
    command: CommandOf<
      'find_resume' | 'load_resume' | 'check_recognizer' | 'open_streams' | 'end_streams' | 'store_session'
    >,
  ): void {
    const { clock } = this.deps;
    switch (command.type) {
      case 'find_resume':
        this.report(this.#resume.find(command.resume), (found) =>
          typeof found === 'string'
            ? { type: 'resume_refused', message: found }
            : // Asked as the claim is made, so no other socket can claim the session in between.
              {
                type: 'resume_found',
                sessionId: found.sessionId,
                heldElsewhere: this.deps.registry.holds(found.sessionId, this),
              },
        );
        return;
      case 'load_resume':
        this.report(this.#resume.load(command.sessionId, command.resume, command.format), (point) =>
          typeof point === 'string' ? { type: 'resume_refused', message: point } : { type: 'resume_loaded', point },
        );
        return;
      case 'check_recognizer':
        this.report(this.deps.recognizer.status(), (status) => ({
          type: 'recognizer_checked',
          status,
          at: clock.now(),
        }));
        return;
      case 'open_streams':
        this.report(this.#channels.open(command.start, command.cepstralMeans), (opened) =>
          opened.ok
            ? { type: 'streams_opened', streams: opened.streams, at: clock.now() }
            : { type: 'streams_failed', code: opened.code, message: opened.message },
        );
        return;
      case 'end_streams':
        void Promise.allSettled(command.streams.map((stream) => stream.end()));
        return;
      case 'store_session':
        this.report(this.#records.open(command.identity, command.start, command.resumed, command.at), () => ({
          type: 'session_stored',
          at: clock.now(),
        }));
        return;
    }
  }

  /** The recognizer streams, the transcript's store-then-send pipeline, and the session's record. */
  private streaming(
    command: CommandOf<
      | 'attach_streams'
      | 'write_audio'
      | 'finalize_streams'
      | 'flush_streams'
      | 'store_final'
      | 'drain_finals'
      | 'record_end'
      | 'record_interruption'
      | 'revalidate'
    >,
  ): void {
    switch (command.type) {
      case 'attach_streams':
        this.#channels.attach(command.streams);
        return;
      case 'write_audio':
        this.#channels.write(command.format, command.data, command.skip);
        return;
      case 'finalize_streams':
        this.#channels.finalize();
        return;
      case 'flush_streams':
        // A stream that fails to end is logged as our failure; the flush timeout moves the ending on.
        this.report(this.#channels.flush(), () => ({ type: 'flushed' }));
        return;
      case 'store_final':
        this.#finals.add(command.sessionId, command.seq, command.segment, command.provisional, command.cepstralMeans);
        return;
      case 'drain_finals':
        this.report(this.#finals.drained(), () => ({ type: 'drained' }));
        return;
      case 'record_end':
        this.report(this.#records.end(command.sessionId, command.reason, progressOf(command)), () => ({
          type: 'recorded',
        }));
        return;
      case 'record_interruption':
        this.report(this.#records.interrupt(command.sessionId, progressOf(command)), () => ({ type: 'recorded' }));
        return;
      case 'revalidate':
        this.deps.revalidate().catch(() => {
          this.dispatch({ type: 'credential_revoked' });
        });
        return;
    }
  }

  private send(event: RealtimeServerEvent): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(event));
  }
}
