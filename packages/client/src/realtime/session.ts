import {
  REALTIME_CLOSE_CODES,
  type AudioFormat,
  type RealtimeClientMessageInput,
  type RealtimeServerEvent,
} from '@chartwright/protocol';

import type { ClientContext, WebSocketLike } from '../core/context.js';
import { apiErrorFromResponse } from '../core/error-response.js';
import { backoffMs } from '../core/retry.js';
import { ChartwrightError } from '../errors.js';
import type { RealtimeCredentials } from './credentials.js';
import { TypedEmitter } from './emitter.js';
import { RealtimeError } from './errors.js';
import type {
  RealtimeCloseEvent,
  RealtimeEndedEvent,
  RealtimeReconnectReason,
  RealtimeSessionEvents,
  RealtimeStartedEvent,
} from './events.js';
import { parseServerEvent } from './server-events.js';
import { openRealtimeSocket } from './socket.js';
import { isRefusal } from './socket-refusal.js';
import { UnacknowledgedAudio } from './unacknowledged-audio.js';

export interface RealtimeSessionConfig {
  url: string;
  format: AudioFormat;
  language: string;
  interimResults: boolean;
  vocabulary: readonly string[] | undefined;
  tokenRefreshMarginMs: number;
  maxBufferedAudioMs: number;
  maxReconnectAttempts: number;
}

/** A token is never refreshed sooner than this after a socket opened, whatever the clocks say. */
const MIN_REFRESH_DELAY_MS = 5_000;
/** How long a socket being replaced may take to close before the session moves on. */
const HANDOVER_CLOSE_MS = 5_000;

/** Server errors after which resuming cannot help. */
const FINAL_SERVER_ERRORS: ReadonlySet<string> = new Set([
  'session_limit',
  'recognizer_unavailable',
  'recognizer_overloaded',
]);
/** Credential failures worth another attempt. */
const RETRYABLE_CREDENTIAL_ERRORS: ReadonlySet<string> = new Set(['token_callback_failed', 'api_key_unavailable']);
/** Server errors after which another `start` may succeed. */
const RETRYABLE_START_ERRORS: ReadonlySet<string> = new Set([
  'resume_failed',
  'at_capacity',
  'internal_error',
  'recognizer_crashed',
]);
/** Close codes of a socket the session must not reopen: the client sent something it should not have. */
const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  REALTIME_CLOSE_CODES.policyViolation,
  REALTIME_CLOSE_CODES.messageTooBig,
  REALTIME_CLOSE_CODES.invalidMessage,
]);

type State = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** How one attempt to open and start a socket ended. */
type Attempt = { ok: true; started: RealtimeStartedEvent } | { ok: false; retry: boolean; error: ChartwrightError };

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function bytesOf(audio: ArrayBuffer | ArrayBufferView): Uint8Array {
  return audio instanceof ArrayBuffer
    ? new Uint8Array(audio)
    : new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength);
}

/**
 * One realtime transcription session, across however many sockets it takes: audio the service
 * has not acknowledged is kept (bounded) and sent again after a reconnect, which resumes the
 * session with its id, so no audio and no segment is lost or seen twice.
 */
export class RealtimeSession extends TypedEmitter<RealtimeSessionEvents> {
  /** The audio format `send()` takes, as the session declared it. */
  readonly format: AudioFormat;
  private state: State = 'connecting';
  private socket: WebSocketLike | undefined;
  private started: RealtimeStartedEvent | undefined;
  private lastAckedAudioMs = 0;
  private lastSegmentId: string | undefined;
  private paused = false;
  private readonly audio: UnacknowledgedAudio;
  private pendingStart: ((attempt: Attempt) => void) | undefined;
  /** The last fatal `error` event of the current socket, read when it closes. */
  private socketError: RealtimeError | undefined;
  private ended: RealtimeEndedEvent | undefined;
  private stopping: Deferred<RealtimeEndedEvent> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private keepaliveTimer: ReturnType<typeof setInterval> | undefined;
  private sentSinceKeepalive = false;
  /** The credential the service last refused at the upgrade, and how: offering it again cannot help. */
  private refused: { credential: string; error: ChartwrightError } | undefined;

  constructor(
    private readonly context: Pick<ClientContext, 'WebSocket' | 'logger'>,
    private readonly credentials: RealtimeCredentials,
    private readonly config: RealtimeSessionConfig,
  ) {
    super();
    this.format = config.format;
    this.audio = new UnacknowledgedAudio(config.format, config.maxBufferedAudioMs);
  }

  /** The service's id of the session (`rts_…`): keep it to find the transcript later. */
  get sessionId(): string {
    if (this.started === undefined) throw new RealtimeError('The session has not started.', 'session_closed', true);
    return this.started.sessionId;
  }

  /** True once the session is over (`close` was emitted). */
  get closed(): boolean {
    return this.state === 'closed';
  }

  /** True while the session waits for a new socket; audio sent meanwhile is kept and sent after. */
  get reconnecting(): boolean {
    return this.state === 'reconnecting';
  }

  /** Opens the first socket; rejects with why when the session cannot start. */
  async open(): Promise<void> {
    try {
      await this.connect(undefined);
    } catch (error) {
      this.finish(REALTIME_CLOSE_CODES.normal, 'not started', undefined);
      throw error;
    }
  }

  /**
   * Streams audio in the session's format (whole sample frames). It is kept until the service
   * acknowledges it; while paused it is dropped, as the service would. Throws
   * `RealtimeBufferOverflowError` when `maxBufferedAudioMs` of audio is already waiting.
   */
  send(audio: ArrayBuffer | ArrayBufferView): void {
    this.assertOpen();
    const bytes = bytesOf(audio);
    if (bytes.byteLength % this.audio.alignment !== 0) {
      throw new RealtimeError(
        `${this.format.encoding} audio with ${this.format.channels} channel(s) comes in multiples of ` +
          `${this.audio.alignment} bytes; got ${bytes.byteLength}.`,
        'misaligned_audio',
        false,
      );
    }
    if (this.paused || bytes.byteLength === 0) return;
    const kept = this.audio.append(bytes);
    if (this.state === 'open') this.write(kept);
  }

  /** Ends the current utterance now: its `final` follows. */
  finalize(): void {
    this.assertOpen();
    // While reconnecting there is nothing to do: the lost socket's utterance was ended with it.
    if (this.state === 'open') this.control({ type: 'finalize' });
  }

  /** Finalizes, then drops audio until `resume()` (it does not count towards the session's audio). */
  pause(): void {
    this.assertOpen();
    if (this.paused) return;
    this.paused = true;
    if (this.state === 'open') this.control({ type: 'pause' });
  }

  resume(): void {
    this.assertOpen();
    if (!this.paused) return;
    this.paused = false;
    if (this.state === 'open') this.control({ type: 'resume' });
  }

  /**
   * Asks the service to flush: resolves with its `ended` totals once the last `final` has been
   * emitted and the socket closed. A lost socket meanwhile is resumed and the stop sent again.
   */
  stop(): Promise<RealtimeEndedEvent> {
    if (this.stopping !== undefined) return this.stopping.promise;
    if (this.state === 'closed') {
      return this.ended?.reason === 'stopped'
        ? Promise.resolve(this.ended)
        : Promise.reject(new RealtimeError('The session is closed.', 'session_closed', true));
    }
    this.stopping = deferred();
    if (this.state === 'open') this.control({ type: 'stop' });
    return this.stopping.promise;
  }

  /** Closes at once without flushing (the service keeps the session resumable for a while). */
  close(): void {
    if (this.state === 'closed') return;
    this.finish(REALTIME_CLOSE_CODES.normal, 'closed by the client', undefined);
  }

  private assertOpen(): void {
    if (this.state === 'closed' || this.stopping !== undefined) {
      throw new RealtimeError(
        this.state === 'closed' ? 'The session is closed.' : 'The session is stopping.',
        'session_closed',
        false,
      );
    }
  }

  /**
   * Opens sockets until one starts (or resumes) the session: the first connection is tried once
   * and retried up to `maxReconnectAttempts` times, a reconnection gets `maxReconnectAttempts` attempts.
   */
  private async connect(reason: RealtimeReconnectReason | undefined): Promise<void> {
    const attempts = this.config.maxReconnectAttempts + (reason === undefined ? 1 : 0);
    if (attempts === 0) {
      throw new RealtimeError('The socket was lost and maxReconnectAttempts is 0.', 'reconnect_failed', true);
    }
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt();
      if (this.isOver()) return;
      if (outcome.ok) {
        this.onStarted(outcome.started, reason, attempt);
        return;
      }
      if (!outcome.retry) throw outcome.error;
      if (attempt >= attempts) {
        throw new RealtimeError(
          `The realtime session could not ${reason === undefined ? 'start' : 'reconnect'} after ${attempt} attempts: ` +
            outcome.error.message,
          reason === undefined ? 'connection_failed' : 'reconnect_failed',
          true,
          { cause: outcome.error },
        );
      }
      const delayMs = backoffMs(attempt - 1);
      if (reason !== undefined) this.emitEvent('reconnecting', { reason, attempt: attempt + 1, delayMs });
      this.context.logger.info('realtime: retrying the connection', { attempt, code: outcome.error.code, delayMs });
      await sleep(delayMs);
      if (this.isOver()) return;
    }
  }

  private async attempt(): Promise<Attempt> {
    let credential: string;
    try {
      credential = (await this.credentials.get()).value;
    } catch (error) {
      // A failing token callback (or apiKey function) may work next time; a refused credential will not.
      if (!(error instanceof ChartwrightError)) throw error;
      return { ok: false, retry: RETRYABLE_CREDENTIAL_ERRORS.has(error.code), error };
    }
    if (this.refused?.credential === credential) return { ok: false, retry: false, error: this.refused.error };
    const opened = await openRealtimeSocket(this.context.WebSocket, this.config.url, credential);
    if (!isRefusal(opened)) {
      if (this.state === 'closed') {
        opened.close(REALTIME_CLOSE_CODES.normal, 'closed by the client');
        return { ok: false, retry: false, error: new RealtimeError('The session is closed.', 'session_closed', true) };
      }
      return this.startOn(opened);
    }
    if (opened.refused) {
      const error = apiErrorFromResponse(opened.status, opened.headers, opened.body);
      if (opened.status === 401) {
        // A fresh credential may be accepted; the same one again would not be.
        this.refused = { credential, error };
        return { ok: false, retry: this.credentials.invalidate(), error };
      }
      return { ok: false, retry: opened.status === 429 || opened.status >= 500, error };
    }
    // The HTTP answer is hidden (browsers): the credential may have been refused, so the next
    // attempt fetches a fresh one when it can.
    this.credentials.invalidate();
    return {
      ok: false,
      retry: true,
      error: new RealtimeError(
        'The realtime WebSocket did not open: the service could not be reached, or it refused the credential.',
        'connection_failed',
        false,
        { cause: opened.cause },
      ),
    };
  }

  /** Sends `start` (with `resume` once the session has started) and waits for the answer. */
  private startOn(socket: WebSocketLike): Promise<Attempt> {
    this.socket = socket;
    this.socketError = undefined;
    const answered = new Promise<Attempt>((resolve) => {
      this.pendingStart = resolve;
    });
    socket.addEventListener('message', (event) => {
      if (socket === this.socket) this.receive(event.data);
    });
    socket.addEventListener('close', (event) => {
      if (socket === this.socket) this.socketClosed(event.code, event.reason);
    });
    // `error` is always followed by `close`, which decides what happens.
    socket.addEventListener('error', () => undefined);
    const { format, language, interimResults, vocabulary } = this.config;
    this.control({
      type: 'start',
      audio: format,
      language,
      interimResults,
      ...(vocabulary === undefined ? {} : { vocabulary: [...vocabulary] }),
      ...(this.started === undefined
        ? {}
        : {
            resume: {
              sessionId: this.started.sessionId,
              resumeToken: this.started.resumeToken,
              lastAckedAudioMs: this.lastAckedAudioMs,
              ...(this.lastSegmentId === undefined ? {} : { lastSegmentId: this.lastSegmentId }),
            },
          }),
    });
    return answered;
  }

  private onStarted(
    started: RealtimeStartedEvent,
    reason: RealtimeReconnectReason | undefined,
    attempts: number,
  ): void {
    const first = this.started === undefined;
    this.started = started;
    this.state = 'open';
    this.startKeepalive(started.limits.keepaliveIntervalSeconds * 1000);
    this.scheduleRefresh();
    if (first) {
      this.context.logger.info('realtime: session started', { sessionId: started.sessionId });
      this.emitEvent('started', started);
    } else {
      // The service continues its clock at lastAckedAudioMs: everything after it goes again.
      for (const chunk of this.audio.after(this.lastAckedAudioMs)) this.write(chunk);
      if (this.paused) this.control({ type: 'pause' });
      this.context.logger.info('realtime: session resumed', { sessionId: started.sessionId, attempts });
      this.emitEvent('reconnected', { reason: reason ?? 'connection_lost', attempts, sessionId: started.sessionId });
    }
    if (this.stopping !== undefined) this.control({ type: 'stop' });
  }

  private receive(data: unknown): void {
    const event = parseServerEvent(data);
    if (event === undefined) {
      this.context.logger.debug('realtime: ignored a frame that is not a known event');
      return;
    }
    this.dispatch(event);
  }

  private dispatch(event: RealtimeServerEvent): void {
    switch (event.type) {
      case 'started': {
        const settle = this.pendingStart;
        this.pendingStart = undefined;
        settle?.({ ok: true, started: event });
        return;
      }
      case 'ack':
        this.lastAckedAudioMs = Math.max(this.lastAckedAudioMs, event.audioMs);
        this.audio.acknowledge(this.lastAckedAudioMs);
        this.emitEvent('ack', event);
        return;
      case 'final':
        // Segment ids sort as strings; a resume replays from lastSegmentId, and only what is new passes.
        if (this.lastSegmentId !== undefined && event.segment.id <= this.lastSegmentId) return;
        this.lastSegmentId = event.segment.id;
        this.emitEvent('final', event);
        return;
      case 'partial':
        this.emitEvent('partial', event);
        return;
      case 'warning':
        this.emitEvent('warning', event);
        return;
      case 'error':
        this.serverError(new RealtimeError(event.message, event.code, event.fatal));
        return;
      case 'ended':
        this.ended = event;
        return;
    }
  }

  private serverError(error: RealtimeError): void {
    const settle = this.pendingStart;
    if (error.fatal) {
      // What follows depends on the close that comes next.
      this.socketError = error;
      return;
    }
    if (settle !== undefined) {
      // A refused start: the socket stays open, but this attempt is over.
      this.pendingStart = undefined;
      this.socket?.close(REALTIME_CLOSE_CODES.normal, 'start refused');
      this.socket = undefined;
      const retry = RETRYABLE_START_ERRORS.has(error.code);
      settle({ ok: false, retry, error: retry ? error : new RealtimeError(error.message, error.code, true) });
      return;
    }
    this.emitEvent('error', error);
  }

  private socketClosed(code: number, reason: string): void {
    this.socket = undefined;
    this.stopTimers();
    const error = this.socketError;
    const settle = this.pendingStart;
    if (settle !== undefined) {
      this.pendingStart = undefined;
      const failure =
        error ??
        new RealtimeError(`The socket closed (${code}) before the session started.`, 'connection_failed', false);
      const retry = error === undefined ? !FINAL_CLOSE_CODES.has(code) : RETRYABLE_START_ERRORS.has(error.code);
      settle({ ok: false, retry, error: failure });
      return;
    }
    if (this.state !== 'open') return;
    const ended = this.ended;
    if (ended !== undefined && (ended.reason === 'stopped' || ended.reason === 'session_limit')) {
      this.finish(code, reason, ended.reason === 'stopped' ? undefined : (error ?? this.sessionLimit()));
      return;
    }
    if (FINAL_CLOSE_CODES.has(code) || (error !== undefined && FINAL_SERVER_ERRORS.has(error.code))) {
      this.finish(
        code,
        reason,
        error ?? new RealtimeError(`The service closed the socket (${code}).`, 'session_closed', true),
      );
      return;
    }
    this.ended = undefined;
    if (code === REALTIME_CLOSE_CODES.credentialExpired) {
      if (!this.credentials.invalidate()) {
        this.finish(
          code,
          reason,
          error ?? new RealtimeError('The credential expired or was revoked.', 'credential_expired', true),
        );
        return;
      }
      this.reconnect('credential_expired');
      return;
    }
    this.reconnect('connection_lost');
  }

  private sessionLimit(): RealtimeError {
    return new RealtimeError('The session reached its maximum length.', 'session_limit', true);
  }

  private reconnect(reason: RealtimeReconnectReason): void {
    this.state = 'reconnecting';
    this.context.logger.info('realtime: socket lost, resuming', { reason, code: this.socketError?.code });
    this.emitEvent('reconnecting', { reason, attempt: 1, delayMs: 0 });
    this.connect(reason).catch((error: unknown) => {
      const failure =
        error instanceof RealtimeError
          ? error
          : new RealtimeError('The session could not reconnect.', 'reconnect_failed', true, { cause: error });
      this.finish(REALTIME_CLOSE_CODES.normal, 'reconnect failed', failure);
    });
  }

  /** Fetches the next token ahead of expiry, then moves the session to a socket opened with it. */
  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    if (!this.credentials.expiring) return;
    const expiresAtMs = this.credentials.expiresAtMs;
    if (expiresAtMs === undefined) return;
    const delayMs = Math.max(MIN_REFRESH_DELAY_MS, expiresAtMs - this.config.tokenRefreshMarginMs - Date.now());
    this.refreshTimer = setTimeout(() => void this.refresh(), delayMs);
  }

  /** Whether the session is over, read afresh after an `await` (a method, so it is never narrowed). */
  private isOver(): boolean {
    return this.state === 'closed';
  }

  /** A token refresh moves an open, unstopped session only. */
  private refreshable(): boolean {
    return this.state === 'open' && this.stopping === undefined;
  }

  private async refresh(): Promise<void> {
    if (!this.refreshable()) return;
    this.credentials.invalidate();
    try {
      await this.credentials.get();
    } catch (error) {
      // The current token still works until it expires; the service's close then resumes the session.
      this.emitEvent(
        'error',
        new RealtimeError('The token callback failed; retrying.', 'token_refresh_failed', false, { cause: error }),
      );
      this.refreshTimer = setTimeout(() => void this.refresh(), MIN_REFRESH_DELAY_MS);
      return;
    }
    const old = this.socket;
    // Read again: the session may have moved on while the callback ran.
    if (!this.refreshable() || old === undefined) return;
    this.socket = undefined;
    this.stopTimers();
    this.state = 'reconnecting';
    const closed = new Promise<void>((resolve) => {
      old.addEventListener('close', () => resolve());
      setTimeout(resolve, HANDOVER_CLOSE_MS);
    });
    old.close(REALTIME_CLOSE_CODES.normal, 'token refresh');
    // The service stores the old socket's last segments when it closes; the resume replays them.
    await closed;
    // `close()` may have been called meanwhile.
    if (this.isOver()) return;
    this.reconnect('token_refresh');
  }

  private startKeepalive(intervalMs: number): void {
    clearInterval(this.keepaliveTimer);
    this.sentSinceKeepalive = false;
    this.keepaliveTimer = setInterval(() => {
      if (!this.sentSinceKeepalive) this.control({ type: 'keepalive' });
      this.sentSinceKeepalive = false;
    }, intervalMs);
  }

  private stopTimers(): void {
    clearInterval(this.keepaliveTimer);
    clearTimeout(this.refreshTimer);
    this.keepaliveTimer = undefined;
    this.refreshTimer = undefined;
  }

  private write(bytes: Uint8Array): void {
    const socket = this.socket;
    if (socket === undefined) return;
    const maxFrame = this.started?.limits.maxFrameBytes ?? bytes.byteLength;
    const step = Math.max(this.audio.alignment, maxFrame - (maxFrame % this.audio.alignment));
    for (let offset = 0; offset < bytes.byteLength; offset += step) socket.send(bytes.subarray(offset, offset + step));
    this.sentSinceKeepalive = true;
  }

  private control(message: RealtimeClientMessageInput): void {
    this.socket?.send(JSON.stringify(message));
    this.sentSinceKeepalive = true;
  }

  /** The session is over: once, whatever ended it. */
  private finish(code: number, reason: string, error: RealtimeError | undefined): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stopTimers();
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(REALTIME_CLOSE_CODES.normal, reason);
    const ended = this.ended;
    if (ended !== undefined) this.emitEvent('ended', ended);
    if (error !== undefined) this.emitEvent('error', error);
    if (this.stopping !== undefined) {
      if (ended?.reason === 'stopped') this.stopping.resolve(ended);
      else
        this.stopping.reject(
          error ?? new RealtimeError('The session was closed before it stopped.', 'session_closed', true),
        );
    }
    const close: RealtimeCloseEvent = { code, reason, ended, error };
    this.context.logger.info('realtime: session closed', { code, error: error?.code });
    this.emitEvent('close', close);
  }

  private emitEvent<K extends keyof RealtimeSessionEvents>(type: K, event: RealtimeSessionEvents[K]): void {
    this.emit(type, event, (error) => {
      this.context.logger.error('realtime: an event listener threw', { event: type, error: String(error) });
    });
  }
}
