/**
 * One realtime transcription session on one WebSocket: the `start` handshake, audio framing and
 * conversion, recognizer streams (one per channel), the event stream back to the client, and the
 * session's limits (idle timeout, maximum length, credential expiry). Transcripts are sent to the
 * client only: nothing here logs them.
 */
import { randomBytes } from 'node:crypto';

import {
  AUDIO_ENCODINGS,
  parseRealtimeClientMessage,
  REALTIME_CLOSE_CODES,
  type AudioFormat,
  type RealtimeErrorCode,
  type RealtimeServerEvent,
  type StartMessage,
} from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';

/** The part of a `ws` socket a session uses. */
export type RealtimeSocket = Pick<WebSocket, 'on' | 'send' | 'close' | 'readyState' | 'OPEN'>;

import { POCKETSPHINX_INSTALL_COMMAND } from '../asr/index.js';
import { RecognizerError, type Recognizer, type RecognizerStream } from '../asr/recognizer.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import type { RealtimeConfig } from '../config/config.js';
import { bytesPerFrame, decodeFrame, framesIn, RECOGNIZER_SAMPLE_RATE } from './audio.js';

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

export interface SessionDependencies {
  recognizer: Recognizer | undefined;
  clock: Clock;
  config: RealtimeConfig;
  logger: FastifyBaseLogger;
}

/** Only English models ship with PocketSphinx. */
export function languageSupported(tag: string): boolean {
  return /^en(-|$)/i.test(tag);
}

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

export class RealtimeSession {
  readonly id = `rts_${randomBytes(12).toString('base64url')}`;
  private readonly resumeToken = randomBytes(24).toString('base64url');
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
    const channels = decodeFrame(this.format, data);
    channels.forEach((pcm, channel) => this.streams[channel]?.write(pcm));
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
    if (message.resume !== undefined) {
      this.error('resume_failed', 'This server does not resume sessions yet; send start without resume.');
      return;
    }
    if (!languageSupported(message.language)) {
      this.error(
        'unsupported_language',
        `language: only English (en, en-US, en-GB…) is served; got ${message.language}.`,
      );
      return;
    }
    const recognizer = this.deps.recognizer;
    const status = recognizer === undefined ? undefined : await recognizer.status();
    if (recognizer === undefined || status?.available !== true) {
      const reason = status?.available === false ? status.reason : 'no speech recognizer is configured';
      const command = status?.available === false ? status.installCommand : POCKETSPHINX_INSTALL_COMMAND;
      await this.finish('error', REALTIME_CLOSE_CODES.internalError, {
        code: 'recognizer_unavailable',
        message: `The speech recognizer is unavailable (${reason}); install it with: ${command}`,
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
    this.streams = streams;
    this.lastFinalEndMs = streams.map(() => 0);
    streams.forEach((stream, channel) => this.listen(stream, channel));
    this.state = 'streaming';
    this.send({
      type: 'started',
      sessionId: this.id,
      resumeToken: this.resumeToken,
      resumed: false,
      credentialExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      audio: message.audio,
      limits: {
        maxSessionSeconds: this.config.maxSessionSeconds,
        idleTimeoutSeconds: this.config.idleTimeoutSeconds,
        keepaliveIntervalSeconds: keepaliveIntervalSeconds(this.config),
        maxFrameBytes: this.config.maxFrameBytes,
      },
    });
    this.deps.logger.info(
      {
        sessionId: this.id,
        projectId: this.principal.projectId,
        environment: this.principal.environment,
        credential: this.principal.kind,
        channels: message.audio.channels,
        sampleRate: message.audio.sampleRate,
        encoding: message.audio.encoding,
      },
      'realtime session started',
    );
    this.scheduleLimits(expiresAt);
  }

  private listen(stream: RecognizerStream, channel: number): void {
    const speaker = this.format?.channels === 2 ? (channel === 0 ? 'clinician' : 'patient') : 'unknown';
    stream.on('partial', ({ text }) => {
      if (this.interimResults && text.trim() !== '' && this.state === 'streaming') {
        this.send({ type: 'partial', text, startMs: this.lastFinalEndMs[channel] ?? 0, channel });
      }
    });
    stream.on('final', (final) => {
      if (final.text.trim() === '' || this.state === 'closed') return;
      this.segments += 1;
      this.lastFinalEndMs[channel] = final.endMs;
      this.send({
        type: 'final',
        segment: {
          id: `seg_${String(this.segments).padStart(6, '0')}`,
          text: final.text,
          startMs: final.startMs,
          endMs: final.endMs,
          channel,
          speaker,
          ...(final.words === undefined
            ? {}
            : {
                words: final.words.map((word) => ({
                  word: word.word,
                  startMs: word.startMs,
                  endMs: word.endMs,
                  ...(word.confidence === undefined ? {} : { confidence: word.confidence }),
                })),
              }),
        },
      });
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

  private scheduleLimits(credentialExpiresAt: number | null): void {
    const sessionMs = this.config.maxSessionSeconds * 1000;
    const sessionLead = Math.min(WARNING_LEAD_MS, sessionMs / 5);
    this.after(sessionMs - sessionLead, () => {
      this.warn('session_limit_approaching', 'The session reaches its maximum length soon.', sessionLead);
    });
    this.after(sessionMs, () => {
      void this.finish('session_limit', REALTIME_CLOSE_CODES.sessionLimit, {
        code: 'session_limit',
        message: `The session reached its maximum length of ${this.config.maxSessionSeconds} s.`,
      });
    });
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
   * Ends the session: an optional fatal error first, then the recognizer's last finals, then
   * `ended` (when the session had started), then the close code.
   */
  async finish(
    reason: EndReason,
    closeCode: number,
    error?: { code: RealtimeErrorCode; message: string },
  ): Promise<void> {
    if (this.state === 'ending' || this.state === 'closed') return;
    const started = this.state === 'streaming';
    this.state = 'ending';
    this.clearTimers();
    if (error !== undefined) this.send({ type: 'error', code: error.code, message: error.message, fatal: true });
    if (started) {
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(this.streams.map((stream) => stream.end())),
        new Promise<void>((resolve) => (timeout = setTimeout(resolve, FLUSH_TIMEOUT_MS))),
      ]);
      clearTimeout(timeout);
      this.send({ type: 'ended', sessionId: this.id, reason, audioMs: this.audioMs, segments: this.segments });
      this.deps.logger.info(
        { sessionId: this.id, reason, audioMs: this.audioMs, segments: this.segments },
        'realtime session ended',
      );
    }
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(closeCode, reason);
  }

  /** Server shutdown: no flush, just `ended` and 1001. */
  shutdown(): void {
    if (this.state === 'ending' || this.state === 'closed') return;
    const started = this.state === 'streaming';
    this.state = 'ending';
    this.clearTimers();
    for (const stream of this.streams) void stream.end();
    if (started) {
      this.send({
        type: 'ended',
        sessionId: this.id,
        reason: 'server_shutdown',
        audioMs: this.audioMs,
        segments: this.segments,
      });
    }
    if (this.socket.readyState === this.socket.OPEN)
      this.socket.close(REALTIME_CLOSE_CODES.goingAway, 'server_shutdown');
  }

  private closed(): void {
    if (this.state !== 'ending') for (const stream of this.streams) void stream.end();
    this.state = 'closed';
    this.clearTimers();
    this.onClosed(this);
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
