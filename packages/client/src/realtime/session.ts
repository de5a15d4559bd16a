import type { AudioFormat } from '@chartwright/protocol';

import type { ClientContext } from '../core/context.js';
import { backoffMs } from '../core/retry.js';
import type { RealtimeCredentials } from './credentials.js';
import { TypedEmitter } from './emitter.js';
import { RealtimeError } from './errors.js';
import type { RealtimeEndedEvent, RealtimeSessionEvents } from './events.js';
import type { RealtimeSessionConfig } from './session-config.js';
import {
  initialClient,
  transition,
  type ClientCommand,
  type ClientEvent,
  type ClientMachineConfig,
  type ClientState,
  type Emit,
} from './session-machine/index.js';
import { SessionSockets } from './session-sockets.js';
import { SessionTimers } from './session-timers.js';
import { UnacknowledgedAudio } from './unacknowledged-audio.js';

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

function bytesOf(audio: ArrayBuffer | ArrayBufferView): Uint8Array {
  return audio instanceof ArrayBuffer
    ? new Uint8Array(audio)
    : new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength);
}

/**
 * One realtime transcription session, across however many sockets it takes: audio the service
 * has not acknowledged is kept (bounded) and sent again after a reconnect, which resumes the
 * session with its id, so no audio and no segment is lost or seen twice. What happens when is
 * decided by the state machine (session-machine/); this class carries out its commands.
 */
export class RealtimeSession extends TypedEmitter<RealtimeSessionEvents> {
  /** The audio format `send()` takes, as the session declared it. */
  readonly format: AudioFormat;
  #state: ClientState;
  readonly #machine: ClientMachineConfig;
  readonly #audio: UnacknowledgedAudio;
  readonly #sockets: SessionSockets;
  readonly #timers: SessionTimers;
  readonly #first: readonly ClientCommand[];
  #opening: Deferred<void> | undefined;
  #stopping: Deferred<RealtimeEndedEvent> | undefined;

  constructor(
    private readonly context: Pick<ClientContext, 'WebSocket' | 'logger'>,
    private readonly credentials: RealtimeCredentials,
    config: RealtimeSessionConfig,
  ) {
    super();
    this.format = config.format;
    this.#audio = new UnacknowledgedAudio(config.format, config.maxBufferedAudioMs);
    const dispatch = (event: ClientEvent) => {
      this.dispatch(event);
    };
    this.#sockets = new SessionSockets(context, config.url, dispatch);
    this.#timers = new SessionTimers((timer) => {
      if (timer !== 'keepalive') {
        dispatch({ type: 'timer', timer });
        return;
      }
      dispatch({ type: 'keepalive_due', quiet: !this.#sockets.takeActivity() });
      // The keepalive itself does not count as activity for the next interval.
      this.#sockets.takeActivity();
    });
    this.#machine = { ...config, renewable: credentials.renewable, expiring: credentials.expiring, backoffMs };
    const initial = initialClient(this.#machine);
    this.#state = initial.state;
    this.#first = initial.commands;
  }

  /** The service's id of the session (`rts_…`): keep it to find the transcript later. */
  get sessionId(): string {
    const started = this.#state.progress.started;
    if (started === undefined) throw new RealtimeError('The session has not started.', 'session_closed', true);
    return started.sessionId;
  }

  /** True once the session is over (`close` was emitted). */
  get closed(): boolean {
    return this.#state.kind === 'closed';
  }

  /** True while the session waits for a new socket; audio sent meanwhile is kept and sent after. */
  get reconnecting(): boolean {
    return this.#state.kind === 'reconnecting';
  }

  /** Opens the first socket; rejects with why when the session cannot start. */
  open(): Promise<void> {
    this.#opening ??= deferred();
    this.run(this.#first);
    return this.#opening.promise;
  }

  /**
   * Streams audio in the session's format (whole sample frames). It is kept until the service
   * acknowledges it; while paused it is dropped, as the service would. Throws
   * `RealtimeBufferOverflowError` when `maxBufferedAudioMs` of audio is already waiting.
   */
  send(audio: ArrayBuffer | ArrayBufferView): void {
    this.dispatch({ type: 'send', bytes: bytesOf(audio) });
  }

  /** Ends the current utterance now: its `final` follows. */
  finalize(): void {
    this.dispatch({ type: 'finalize' });
  }

  /** Finalizes, then drops audio until `resume()` (it does not count towards the session's audio). */
  pause(): void {
    this.dispatch({ type: 'pause' });
  }

  resume(): void {
    this.dispatch({ type: 'resume' });
  }

  /**
   * Asks the service to flush: resolves with its `ended` totals once the last `final` has been
   * emitted and the socket closed. A lost socket meanwhile is resumed and the stop sent again.
   */
  stop(): Promise<RealtimeEndedEvent> {
    this.#stopping ??= deferred();
    this.dispatch({ type: 'stop' });
    return this.#stopping.promise;
  }

  /** Closes at once without flushing (the service keeps the session resumable for a while). */
  close(): void {
    this.dispatch({ type: 'close' });
  }

  /**
   * The state moves first, then its commands run in order. A listener may call the session back
   * from an event it emits: that call sees the new state.
   */
  private dispatch(event: ClientEvent): void {
    const next = transition(this.#machine, this.#state, event);
    this.#state = next.state;
    this.run(next.commands);
  }

  private run(commands: readonly ClientCommand[]): void {
    for (const command of commands) this.execute(command);
  }

  private execute(command: ClientCommand): void {
    switch (command.type) {
      case 'emit':
        this.emitEvent(command);
        return;
      case 'log':
        this.context.logger[command.level](command.message, command.fields);
        return;
      case 'refuse':
        throw command.error;
      case 'opened':
        this.#opening?.resolve();
        return;
      case 'open_failed':
        this.#opening?.reject(command.error);
        return;
      case 'stopped':
        this.#stopping?.resolve(command.ended);
        return;
      case 'stop_failed':
        this.#stopping?.reject(command.error);
        return;
      case 'get_credential':
      case 'invalidate_credential':
      case 'refresh_credential':
        this.credential(command);
        return;
      case 'open_socket':
        this.#sockets.open(command.credential);
        return;
      case 'send_message':
        this.#sockets.send(command.socket, command.message);
        return;
      case 'close_socket':
        this.#sockets.close(command.socket, command.code, command.reason);
        return;
      case 'keep_audio':
      case 'resend_audio':
      case 'acknowledge_audio':
        this.audio(command);
        return;
      case 'schedule':
        if (command.timer === 'keepalive') this.#sockets.takeActivity();
        this.#timers.schedule(command.timer, command.ms, command.repeat === true);
        return;
      case 'clear_timer':
        this.#timers.clear(command.timer);
        return;
      case 'clear_timers':
        this.#timers.clearAll();
        return;
    }
  }

  private credential(command: Extract<ClientCommand, { type: `${string}_credential` }>): void {
    switch (command.type) {
      case 'get_credential':
        this.credentials.get().then(
          ({ value, expiresAtMs }) => {
            this.dispatch({ type: 'credential', value, expiresAtMs });
          },
          (error: unknown) => {
            this.dispatch({ type: 'credential_failed', error });
          },
        );
        return;
      case 'invalidate_credential':
        this.credentials.invalidate();
        return;
      case 'refresh_credential':
        this.credentials.invalidate();
        this.credentials.get().then(
          () => {
            this.dispatch({ type: 'refreshed' });
          },
          (error: unknown) => {
            this.dispatch({ type: 'refresh_failed', error });
          },
        );
        return;
    }
  }

  private audio(command: Extract<ClientCommand, { type: `${string}_audio` }>): void {
    const alignment = this.#audio.alignment;
    switch (command.type) {
      case 'keep_audio': {
        // The copy is what is written: the caller may reuse its buffer.
        const kept = this.#audio.append(command.bytes);
        if (command.write !== undefined) {
          this.#sockets.write(command.write.socket, kept, alignment, command.write.maxFrameBytes);
        }
        return;
      }
      case 'resend_audio':
        for (const chunk of this.#audio.after(command.fromMs)) {
          this.#sockets.write(command.socket, chunk, alignment, command.maxFrameBytes);
        }
        return;
      case 'acknowledge_audio':
        this.#audio.acknowledge(command.audioMs);
        return;
    }
  }

  private emitEvent(command: Emit): void {
    this.emit(command.name, command.event, (error) => {
      this.context.logger.error('realtime: an event listener threw', { event: command.name, error: String(error) });
    });
  }
}
