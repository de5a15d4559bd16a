/**
 * One realtime transcription session on one WebSocket: the `start` handshake, audio framing and
 * conversion, recognizer streams (one per channel), the event stream back to the client, and the
 * session's limits (idle timeout, maximum length, credential expiry), and its durability: every
 * `final` is stored before it is sent, and a `start` with `resume` continues a session that lost its
 * socket. Transcripts are sent to the client and stored: nothing here logs them.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

import {
  AUDIO_ENCODINGS,
  bytesPerFrame,
  framesIn,
  RECOGNIZER_SAMPLE_RATE,
  parseRealtimeClientMessage,
  REALTIME_CLOSE_CODES,
  type AudioFormat,
  type RealtimeErrorCode,
  type RealtimeServerEvent,
  type ResumeRequest,
  type StartMessage,
  type TranscriptSegment,
} from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';

/** The part of a `ws` socket a session uses. */
export type RealtimeSocket = Pick<WebSocket, 'on' | 'send' | 'close' | 'readyState' | 'OPEN'>;

import { RecognizerError, servesLanguage, type Recognizer, type RecognizerStream } from '../asr/recognizer.js';
import type { Principal } from '../auth/principal.js';
import { generateSecret, hashSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { RealtimeConfig } from '../config/config.js';
import type {
  RealtimeSessionRow,
  RealtimeSessionsRepository,
  TranscriptSegmentRow,
  TranscriptSegmentsRepository,
} from '../store/realtime-sessions.js';
import { decodeFrame } from './audio.js';
import { resumeRefusal, segmentOfRow } from './stored-session.js';

/** Audio position between two `ack` events. */
export const ACK_INTERVAL_MS = 500;
/** How long `stop` (or any other ending) waits for the recognizer's last finals. */
export const FLUSH_TIMEOUT_MS = 10_000;
/** Warnings come this long before the session's time or credential runs out (or at once if less is left). */
export const WARNING_LEAD_MS = 60_000;
/** Audio the service holds while the recognizer streams are opening, before the session is failed. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/** setTimeout's largest delay; limits further away than this are not scheduled (they cannot fire first). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type EndReason = Extract<RealtimeServerEvent, { type: 'ended' }>['reason'];

/** Where sessions and their segments are stored. */
export interface RealtimeStore {
  sessions: RealtimeSessionsRepository;
  segments: TranscriptSegmentsRepository;
}

/** The instance's sessions, as a resume sees them. */
export interface SessionRegistry {
  /** True when an open socket of this instance (other than `except`) carries session `id`. */
  holds(id: string, except?: RealtimeSession): boolean;
  /** Resolves once a session of this instance that lost its socket has stored its last segments. */
  settled(id: string): Promise<void>;
}

export interface SessionDependencies {
  recognizer: Recognizer;
  clock: Clock;
  config: RealtimeConfig;
  logger: FastifyBaseLogger;
  store: RealtimeStore;
  registry: SessionRegistry;
  /** Throws when the credential that opened the socket no longer authenticates (revoked, expired). */
  revalidate: () => Promise<void>;
}

export function segmentId(seq: number): string {
  return `seg_${String(seq).padStart(6, '0')}`;
}

/** The seq of a `seg_000042` id; undefined for anything else. */
export function segmentSeq(id: string): number | undefined {
  const match = /^seg_(\d{6,})$/.exec(id);
  if (match?.[1] === undefined) return undefined;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) && seq > 0 && segmentId(seq) === id ? seq : undefined;
}

function sameHash(left: string, right: string): boolean {
  const [a, b] = [Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8')];
  return a.length === b.length && timingSafeEqual(a, b);
}

function sameFormat(stored: string, format: AudioFormat): boolean {
  const parsed = JSON.parse(stored) as Partial<AudioFormat>;
  return (
    parsed.encoding === format.encoding &&
    parsed.sampleRate === format.sampleRate &&
    parsed.channels === format.channels
  );
}

/** What a resume continues from. */
interface ResumePoint {
  row: RealtimeSessionRow;
  resumeToken: string;
  /** Segments the client has not seen, in seq order. */
  replay: TranscriptSegmentRow[];
  lastSeq: number;
  lastAckedAudioMs: number;
}

/** Only English models ship with PocketSphinx. */
function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** The schema refuses unknown encodings as `invalid_message`; the socket names them precisely. */
function unsupportedEncoding(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { type, audio } = value as { type?: unknown; audio?: unknown };
    if (type !== 'start' || typeof audio !== 'object' || audio === null) return undefined;
    const encoding = (audio as { encoding?: unknown }).encoding;
    if (typeof encoding !== 'string' || (AUDIO_ENCODINGS as readonly string[]).includes(encoding)) return undefined;
    return `audio.encoding: must be one of ${AUDIO_ENCODINGS.join(', ')}.`;
  } catch {
    return undefined;
  }
}

type State = 'awaiting_start' | 'starting' | 'streaming' | 'ending' | 'closed';

const newSessionId = () => `rts_${randomBytes(12).toString('base64url')}`;

export class RealtimeSession {
  private sessionId = newSessionId();
  private resumeToken = generateSecret('rsm_');
  private state: State = 'awaiting_start';
  private format: AudioFormat | undefined;
  private interimResults = true;
  private streams: RecognizerStream[] = [];
  private paused = false;
  /** Sample frames (per channel, at the client's rate) handed to the recognizer. */
  private framesReceived = 0;
  private acked = 0;
  private segments = 0;
  private lastFinalEndMs: number[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Messages are handled one at a time, in order, even while `start` waits for the recognizer. */
  private queue: Promise<void> = Promise.resolve();
  private queuedBytes = 0;
  /** Finals are stored, then sent, one after another in the order the recognizer produced them. */
  private finals: Promise<void> = Promise.resolve();
  /** After a segment could not be stored, nothing more is stored or sent (the client resumes). */
  private storageFailed = false;
  /** Set once the session's last segments are stored: later recognizer events are ignored. */
  private sealed = false;
  /** Session time (ms) of the first sample these recognizer streams were given. */
  private streamOffsetMs = 0;
  /** Audio up to here (frames) was transcribed before a resume: its resent copy is counted, not decoded. */
  private skipUntilFrames = 0;
  /** Audio (ms) known to be transcribed to the end, stored as the session's `audio_ms`. */
  private transcribedMs = 0;
  private ending: Promise<void> | undefined;
  /** Resolves once a closed session has stored everything it will store. */
  settled: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: RealtimeSocket,
    readonly principal: Principal,
    private readonly deps: SessionDependencies,
    private readonly onClosed: (session: RealtimeSession) => void,
  ) {
    socket.on('message', (data, isBinary) => {
      this.receive(toBuffer(data), isBinary);
    });
    socket.on('close', () => {
      this.closed();
    });
    this.touch();
  }

  get id(): string {
    return this.sessionId;
  }

  /** Resolves once the session stored everything it will store (its ending, or its lost socket's flush). */
  done(): Promise<void> {
    return this.state === 'closed' ? this.settled : (this.ending ?? Promise.resolve());
  }

  get audioMs(): number {
    return this.format === undefined ? 0 : Math.round((this.framesReceived * 1000) / this.format.sampleRate);
  }

  private get config(): RealtimeConfig {
    return this.deps.config;
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (this.state === 'ending' || this.state === 'closed') return;
    this.touch();
    const oversized = data.byteLength > this.config.maxFrameBytes;
    this.queuedBytes += data.byteLength;
    if (this.queuedBytes > MAX_QUEUED_BYTES) {
      void this.finish('error', REALTIME_CLOSE_CODES.overloaded, {
        code: 'recognizer_overloaded',
        message: 'Audio arrived faster than the recognizer could start; the session is closed.',
      });
      return;
    }
    this.queue = this.queue
      .then(async () => {
        // In order with the other frames' answers.
        if (oversized) {
          this.error(
            'frame_too_large',
            `Frames may be at most ${this.config.maxFrameBytes} bytes; this one had ${data.byteLength} and was dropped.`,
          );
        } else if (isBinary) {
          this.onAudio(data);
        } else {
          await this.onText(data.toString('utf8'));
        }
      })
      .catch((error: unknown) => {
        this.deps.logger.error({ err: error, sessionId: this.id }, 'realtime message handling failed');
        return this.finish('error', REALTIME_CLOSE_CODES.internalError, {
          code: 'internal_error',
          message: 'Something went wrong on our side.',
        });
      })
      .finally(() => {
        this.queuedBytes -= data.byteLength;
      });
  }

  private onAudio(data: Buffer): void {
    if (this.state === 'awaiting_start' || this.format === undefined) {
      this.error('audio_before_start', 'Send the start message, with the audio format, before any audio.');
      return;
    }
    if (this.state !== 'streaming') return;
    const frames = framesIn(this.format, data.byteLength);
    if (frames === undefined) {
      this.error(
        'misaligned_audio',
        `${this.format.encoding} audio with ${this.format.channels} channel(s) comes in multiples of ` +
          `${bytesPerFrame(this.format)} bytes; this frame had ${data.byteLength} and was dropped.`,
      );
      return;
    }
    if (this.paused || frames === 0) return;
    // After a resume, the resent audio the recognizer already transcribed is counted, not decoded again.
    const skipped = Math.max(0, Math.min(frames, this.skipUntilFrames - this.framesReceived));
    if (skipped < frames) {
      const fresh = skipped === 0 ? data : data.subarray(skipped * bytesPerFrame(this.format));
      decodeFrame(this.format, fresh).forEach((pcm, channel) => this.streams[channel]?.write(pcm));
    }
    this.framesReceived += frames;
    const due = Math.floor(this.audioMs / ACK_INTERVAL_MS);
    if (due > this.acked) {
      this.acked = due;
      this.send({ type: 'ack', audioMs: this.audioMs });
    }
  }

  private async onText(text: string): Promise<void> {
    const encodingProblem = unsupportedEncoding(text);
    if (encodingProblem !== undefined) {
      this.error('unsupported_encoding', encodingProblem);
      return;
    }
    const parsed = parseRealtimeClientMessage(text);
    if (!parsed.ok) {
      this.error(parsed.code, parsed.message);
      return;
    }
    const message = parsed.message;
    if (message.type === 'start') {
      await this.start(message);
      return;
    }
    if (message.type === 'keepalive') return;
    if (this.state !== 'streaming') {
      this.error('invalid_message', `type: ${message.type} is only valid after start.`);
      return;
    }
    switch (message.type) {
      case 'finalize':
        for (const stream of this.streams) stream.finalize();
        return;
      case 'pause':
        this.paused = true;
        for (const stream of this.streams) stream.finalize();
        return;
      case 'resume':
        this.paused = false;
        return;
      case 'stop':
        await this.finish('stopped', REALTIME_CLOSE_CODES.normal);
        return;
    }
  }

  private async start(message: StartMessage): Promise<void> {
    if (this.state !== 'awaiting_start') {
      this.error('already_started', 'This session has already started; send start once per socket.');
      return;
    }
    const languages = this.deps.recognizer.languages;
    if (languages !== 'any' && !servesLanguage({ languages }, message.language)) {
      this.error(
        'unsupported_language',
        `language: this service transcribes ${languages.join(', ')} only; got ${message.language}.`,
      );
      return;
    }
    let resumed: ResumePoint | undefined;
    if (message.resume !== undefined) {
      const point = await this.resumePoint(message.resume, message.audio);
      if (typeof point === 'string') {
        this.error('resume_failed', point);
        return;
      }
      resumed = point;
    }
    const recognizer = this.deps.recognizer;
    const status = await recognizer.status();
    if (!status.available) {
      await this.finish('error', REALTIME_CLOSE_CODES.internalError, {
        code: 'recognizer_unavailable',
        message: `The speech recognizer is unavailable (${status.reason}); install it with: ${status.installHint}`,
      });
      return;
    }
    const expiresAt = this.principal.expiresAt;
    if (expiresAt !== null && expiresAt <= this.deps.clock.now()) {
      await this.finish('credential_expired', REALTIME_CLOSE_CODES.credentialExpired, {
        code: 'credential_expired',
        message: 'The credential that opened this socket has expired.',
      });
      return;
    }
    this.state = 'starting';
    this.format = message.audio;
    this.interimResults = message.interimResults;
    const options = {
      sampleRate: RECOGNIZER_SAMPLE_RATE,
      language: message.language,
      ...(message.vocabulary === undefined ? {} : { vocabulary: message.vocabulary }),
    } as const;
    const opened = await Promise.allSettled(
      Array.from({ length: message.audio.channels }, () => recognizer.openStream(options)),
    );
    const streams = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failure = opened.find((result) => result.status === 'rejected');
    // The socket may have closed, or the session ended, while the streams were opening.
    if (failure !== undefined || (this.state as State) !== 'starting') {
      await Promise.all(streams.map((stream) => stream.end()));
      if (failure === undefined) return; // the socket closed or the session ended meanwhile
      const reason: unknown = failure.reason;
      const code = reason instanceof RecognizerError ? reason.code : 'recognizer_failed';
      await this.finish('error', REALTIME_CLOSE_CODES.internalError, {
        code: code === 'recognizer_failed' ? 'internal_error' : code,
        message: reason instanceof RecognizerError ? reason.message : 'The speech recognizer could not open a stream.',
      });
      return;
    }
    const now = this.deps.clock.now();
    try {
      if (resumed === undefined) {
        await this.deps.store.sessions.insert(this.sessionRow(message, now));
      } else {
        await this.deps.store.sessions.reopen(this.id, now);
      }
    } catch (error) {
      await Promise.all(streams.map((stream) => stream.end()));
      throw error;
    }
    if ((this.state as State) !== 'starting') {
      await Promise.all(streams.map((stream) => stream.end()));
      return;
    }
    if (resumed !== undefined) this.continueFrom(resumed);
    this.streams = streams;
    this.lastFinalEndMs = streams.map(() => this.streamOffsetMs);
    streams.forEach((stream, channel) => this.listen(stream, channel));
    this.state = 'streaming';
    this.send({
      type: 'started',
      sessionId: this.id,
      resumeToken: this.resumeToken,
      resumed: resumed !== undefined,
      credentialExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      audio: message.audio,
      limits: {
        maxSessionSeconds: this.config.maxSessionSeconds,
        idleTimeoutSeconds: this.config.idleTimeoutSeconds,
        keepaliveIntervalSeconds: keepaliveIntervalSeconds(this.config),
        maxFrameBytes: this.config.maxFrameBytes,
      },
    });
    // The segments the client missed, before anything new: they are stored, so they are sent as they are.
    for (const row of resumed?.replay ?? []) this.send({ type: 'final', segment: segmentOfRow(row) });
    this.deps.logger.info(
      {
        sessionId: this.id,
        projectId: this.principal.projectId,
        environment: this.principal.environment,
        credential: this.principal.kind,
        channels: message.audio.channels,
        sampleRate: message.audio.sampleRate,
        encoding: message.audio.encoding,
        ...(resumed === undefined
          ? {}
          : {
              resumed: true,
              lastAckedAudioMs: resumed.lastAckedAudioMs,
              replayed: resumed.replay.length,
              lastSeq: resumed.lastSeq,
            }),
      },
      resumed === undefined ? 'realtime session started' : 'realtime session resumed',
    );
    const elapsedMs = resumed === undefined ? 0 : Math.max(0, now - resumed.row.created_at);
    this.scheduleLimits(expiresAt, elapsedMs);
  }

  private sessionRow(message: StartMessage, now: number): RealtimeSessionRow {
    const principal = this.principal;
    const issuer = principal.kind === 'realtime_token' ? principal.issuer : undefined;
    return {
      id: this.id,
      project_id: principal.projectId,
      environment: principal.environment,
      credential_kind: principal.kind,
      api_key_id: principal.kind === 'api_key' ? principal.apiKeyId : issuer?.kind === 'api_key' ? issuer.id : null,
      partner_id: issuer?.kind === 'partner' ? issuer.id : null,
      encounter_id: principal.kind === 'realtime_token' ? principal.encounterId : null,
      resume_token_hash: hashSecret(this.resumeToken),
      audio_format: JSON.stringify(message.audio),
      language: message.language,
      created_at: now,
      last_seen_at: now,
      ended_at: null,
      end_reason: null,
      audio_ms: 0,
    };
  }

  /**
   * Checks a resume request and claims the session for this socket; a string says why it cannot
   * be resumed (the same words for an unknown session, another project's and a wrong token).
   */
  private async resumePoint(resume: ResumeRequest, format: AudioFormat): Promise<ResumePoint | string> {
    const refused = 'No resumable session has this sessionId and resumeToken for this project and environment.';
    const tokenHash = hashSecret(resume.resumeToken);
    const found = await this.deps.store.sessions.get(resume.sessionId);
    if (
      found?.project_id !== this.principal.projectId ||
      found.environment !== this.principal.environment ||
      !sameHash(found.resume_token_hash, tokenHash)
    ) {
      return refused;
    }
    // A widget's token carries its encounter: it may continue only that encounter's sessions.
    const principal = this.principal;
    if (principal.kind === 'realtime_token' && principal.encounterId !== found.encounter_id) return refused;
    if (this.deps.registry.holds(found.id, this)) {
      return 'The session is still open on another socket; retry once that socket has closed.';
    }
    // Claimed: from here on, another socket's resume of this session is refused as above.
    this.sessionId = found.id;
    const problem = await this.resumeProblem(found.id, resume, format);
    if (typeof problem === 'string') {
      this.sessionId = newSessionId();
      return problem;
    }
    this.resumeToken = resume.resumeToken;
    return problem;
  }

  private async resumeProblem(id: string, resume: ResumeRequest, format: AudioFormat): Promise<ResumePoint | string> {
    // A socket of this instance that carried the session may still be storing its last segments.
    await this.deps.registry.settled(id);
    const row = await this.deps.store.sessions.get(id);
    if (row === undefined) return 'The session no longer exists.';
    const refusal = resumeRefusal(row, this.deps.clock.now(), this.config.maxSessionSeconds);
    if (refusal !== undefined) return refusal;
    if (!sameFormat(row.audio_format, format)) {
      return 'audio: a resumed session keeps the audio format it started with.';
    }
    const lastSeq = await this.deps.store.segments.lastSeq(id);
    let afterSeq = 0;
    if (resume.lastSegmentId !== undefined) {
      const seq = segmentSeq(resume.lastSegmentId);
      if (seq === undefined || seq > lastSeq) {
        return `resume.lastSegmentId: ${resume.lastSegmentId} is not a segment of this session.`;
      }
      afterSeq = seq;
    }
    const replay = await this.deps.store.segments.listAfter(id, afterSeq);
    return { row, resumeToken: resume.resumeToken, replay, lastSeq, lastAckedAudioMs: resume.lastAckedAudioMs };
  }

  /**
   * Continues the resumed session's numbering and audio clock: the clock restarts at the client's
   * last acknowledged position (it sends the audio after it again); audio the recognizer already
   * transcribed before the socket was lost is counted but not decoded twice.
   */
  private continueFrom(point: ResumePoint): void {
    const rate = this.format?.sampleRate ?? RECOGNIZER_SAMPLE_RATE;
    this.segments = point.lastSeq;
    this.framesReceived = Math.round((point.lastAckedAudioMs * rate) / 1000);
    this.acked = Math.floor(point.lastAckedAudioMs / ACK_INTERVAL_MS);
    const from = Math.max(point.row.audio_ms, point.lastAckedAudioMs);
    this.skipUntilFrames = Math.round((from * rate) / 1000);
    this.streamOffsetMs = from;
    this.transcribedMs = from;
  }

  private listen(stream: RecognizerStream, channel: number): void {
    const speaker = this.format?.channels === 2 ? (channel === 0 ? 'clinician' : 'patient') : 'unknown';
    stream.on('partial', ({ text }) => {
      if (this.interimResults && text.trim() !== '' && this.state === 'streaming') {
        this.send({ type: 'partial', text, startMs: this.lastFinalEndMs[channel] ?? 0, channel });
      }
    });
    stream.on('final', (final) => {
      if (final.text.trim() === '' || this.sealed) return;
      this.segments += 1;
      const seq = this.segments;
      const offset = this.streamOffsetMs;
      const segment: TranscriptSegment = {
        id: segmentId(seq),
        text: final.text,
        startMs: offset + final.startMs,
        endMs: offset + final.endMs,
        channel,
        speaker,
        ...(final.words === undefined
          ? {}
          : {
              words: final.words.map((word) => ({
                word: word.word,
                startMs: offset + word.startMs,
                endMs: offset + word.endMs,
                ...(word.confidence === undefined ? {} : { confidence: word.confidence }),
              })),
            }),
      };
      this.lastFinalEndMs[channel] = segment.endMs;
      this.finals = this.finals.then(() => this.storeAndSend(seq, segment));
    });
    stream.on('error', ({ code, message }) => {
      const closeCode =
        code === 'recognizer_overloaded' ? REALTIME_CLOSE_CODES.overloaded : REALTIME_CLOSE_CODES.internalError;
      void this.finish('error', closeCode, {
        code: code === 'recognizer_failed' ? 'internal_error' : code,
        message,
      });
    });
  }

  /** Durability: a final is sent only once it is stored. */
  private async storeAndSend(seq: number, segment: TranscriptSegment): Promise<void> {
    if (this.storageFailed) return;
    try {
      await this.deps.store.segments.insert({
        session_id: this.id,
        seq,
        id: segment.id,
        text: segment.text,
        start_ms: segment.startMs,
        end_ms: segment.endMs,
        channel: segment.channel,
        speaker: segment.speaker,
        words: segment.words === undefined ? null : JSON.stringify(segment.words),
        created_at: this.deps.clock.now(),
      });
    } catch (error) {
      this.storageFailed = true;
      this.deps.logger.error({ err: error, sessionId: this.id, segmentId: segment.id }, 'realtime segment not stored');
      void this.finish('error', REALTIME_CLOSE_CODES.internalError, {
        code: 'internal_error',
        message: 'A transcript segment could not be stored; resume the session to continue.',
      });
      return;
    }
    this.send({ type: 'final', segment });
  }

  /** Ends the recognizer streams; true when their last finals arrived within the flush timeout. */
  private async flushStreams(): Promise<boolean> {
    let timeout: NodeJS.Timeout | undefined;
    const flushed = await Promise.race([
      Promise.all(this.streams.map((stream) => stream.end())).then(() => true),
      new Promise<boolean>((resolve) => (timeout = setTimeout(() => resolve(false), FLUSH_TIMEOUT_MS))),
    ]);
    clearTimeout(timeout);
    return flushed;
  }

  /** Waits for the last finals to be stored; afterwards the recognizer's events are ignored. */
  private async seal(): Promise<void> {
    const flushed = await this.flushStreams();
    await this.finals;
    this.sealed = true;
    if (flushed && !this.storageFailed) this.transcribedMs = this.audioMs;
  }

  private scheduleLimits(credentialExpiresAt: number | null, elapsedMs = 0): void {
    const sessionMs = this.config.maxSessionSeconds * 1000 - elapsedMs;
    const sessionLead = Math.min(WARNING_LEAD_MS, (this.config.maxSessionSeconds * 1000) / 5, sessionMs);
    this.after(sessionMs - sessionLead, () => {
      this.warn('session_limit_approaching', 'The session reaches its maximum length soon.', sessionLead);
    });
    this.after(sessionMs, () => {
      void this.finish('session_limit', REALTIME_CLOSE_CODES.sessionLimit, {
        code: 'session_limit',
        message: `The session reached its maximum length of ${this.config.maxSessionSeconds} s.`,
      });
    });
    const check = setInterval(() => {
      this.deps.revalidate().catch(() => {
        void this.finish('credential_expired', REALTIME_CLOSE_CODES.credentialExpired, {
          code: 'credential_expired',
          message: 'The credential that opened this socket was revoked or expired.',
        });
      });
    }, this.config.credentialCheckSeconds * 1000);
    this.timers.add(check);
    if (credentialExpiresAt === null) return;
    const remaining = credentialExpiresAt - this.deps.clock.now();
    if (remaining > MAX_TIMER_MS) return;
    this.after(Math.max(0, remaining - WARNING_LEAD_MS), () => {
      this.warn(
        'credential_expiring',
        'The credential that opened this socket expires soon; open a new session with a fresh one.',
        Math.min(WARNING_LEAD_MS, remaining),
      );
    });
    this.after(remaining, () => {
      void this.finish('credential_expired', REALTIME_CLOSE_CODES.credentialExpired, {
        code: 'credential_expired',
        message: 'The credential that opened this socket expired.',
      });
    });
  }

  private after(ms: number, run: () => void): void {
    if (ms > MAX_TIMER_MS) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private warn(code: 'credential_expiring' | 'session_limit_approaching', message: string, remainingMs: number): void {
    if (this.state === 'streaming') this.send({ type: 'warning', code, message, remainingMs: Math.round(remainingMs) });
  }

  /** Any frame from the client restarts the idle timer. */
  private touch(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      void this.finish('idle_timeout', REALTIME_CLOSE_CODES.idleTimeout, {
        code: 'idle_timeout',
        message: `Nothing arrived for ${this.config.idleTimeoutSeconds} s; send keepalive while there is no audio.`,
      });
    }, this.config.idleTimeoutSeconds * 1000);
  }

  /** A non-fatal error: the message or frame is dropped and the session carries on. */
  private error(code: RealtimeErrorCode, message: string): void {
    this.send({ type: 'error', code, message, fatal: false });
  }

  /**
   * Ends the session: an optional fatal error first, then the recognizer's last finals (stored,
   * then sent), then `ended` (when the session had started), then the close code.
   */
  finish(reason: EndReason, closeCode: number, error?: { code: RealtimeErrorCode; message: string }): Promise<void> {
    if (this.state === 'ending' || this.state === 'closed') return this.ending ?? Promise.resolve();
    const started = this.state === 'streaming';
    this.state = 'ending';
    this.clearTimers();
    if (error !== undefined) this.send({ type: 'error', code: error.code, message: error.message, fatal: true });
    this.ending = this.end(started, reason, closeCode);
    return this.ending;
  }

  private async end(started: boolean, reason: EndReason, closeCode: number): Promise<void> {
    if (started) {
      await this.seal();
      await this.markEnded(reason);
      this.send({ type: 'ended', sessionId: this.id, reason, audioMs: this.audioMs, segments: this.segments });
      this.deps.logger.info(
        { sessionId: this.id, reason, audioMs: this.audioMs, segments: this.segments },
        'realtime session ended',
      );
    }
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(closeCode, reason);
  }

  private async markEnded(reason: EndReason): Promise<void> {
    try {
      await this.deps.store.sessions.markEnded(this.id, {
        endedAt: this.deps.clock.now(),
        reason,
        audioMs: this.transcribedMs,
      });
    } catch (error) {
      this.deps.logger.error({ err: error, sessionId: this.id }, 'realtime session end not stored');
    }
  }

  /** Server shutdown: `ended` and 1001 at once; the last finals are stored (not sent) for a resume. */
  shutdown(): void {
    if (this.state === 'ending' || this.state === 'closed') return;
    const started = this.state === 'streaming';
    this.state = 'ending';
    this.clearTimers();
    if (started) {
      this.send({
        type: 'ended',
        sessionId: this.id,
        reason: 'server_shutdown',
        audioMs: this.audioMs,
        segments: this.segments,
      });
      this.ending = this.seal().then(() => this.markEnded('server_shutdown'));
    }
    if (this.socket.readyState === this.socket.OPEN)
      this.socket.close(REALTIME_CLOSE_CODES.goingAway, 'server_shutdown');
  }

  private closed(): void {
    const interrupted = this.state === 'streaming';
    this.state = 'closed';
    this.clearTimers();
    // A lost socket: the recognizer's last finals are stored (not sent), so a resume replays them.
    this.settled = interrupted ? this.interrupted() : (this.ending ?? Promise.resolve());
    if (!interrupted && this.ending === undefined) for (const stream of this.streams) void stream.end();
    this.onClosed(this);
  }

  private async interrupted(): Promise<void> {
    await this.seal();
    try {
      await this.deps.store.sessions.touch(this.id, this.deps.clock.now(), this.transcribedMs);
    } catch (error) {
      this.deps.logger.error({ err: error, sessionId: this.id }, 'realtime session state not stored');
    }
    this.deps.logger.info(
      { sessionId: this.id, audioMs: this.audioMs, segments: this.segments },
      'realtime session lost its socket',
    );
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private send(event: RealtimeServerEvent): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(event));
  }
}

/** The keepalive interval clients are told: a third of the idle timeout. */
export function keepaliveIntervalSeconds(config: Pick<RealtimeConfig, 'idleTimeoutSeconds'>): number {
  return Math.max(1, Math.floor(config.idleTimeoutSeconds / 3));
}
