import {
  Chartwright,
  MICROPHONE_AUDIO_FORMAT,
  type ChartwrightError,
  type RealtimeRetryingEvent,
  type RealtimeSession,
  type RealtimeTokenGrant,
  type TranscriptSegment,
  type WebSocketConstructor,
} from '@chartwright/client';

/** A running audio source feeding a realtime session. */
export interface AudioCapture {
  stop(): Promise<void>;
}

/**
 * Where the audio comes from: the browser's microphone in the widget, a recording in tests. It
 * streams 16 kHz 16-bit mono PCM into the realtime session until stopped.
 */
export interface AudioInput {
  start(
    realtimeSession: RealtimeSession,
    handlers: { onLevel: (level: number) => void; onError: (error: ChartwrightError) => void },
  ): Promise<AudioCapture>;
}

export interface RecordingHandlers {
  partial: (text: string) => void;
  /** A final of the realtime session `realtimeSessionId`. */
  final: (segment: TranscriptSegment, realtimeSessionId: string) => void;
  level: (level: number) => void;
  /** The socket was lost (audio is kept meanwhile) or is back. */
  connection: (state: 'online' | 'reconnecting') => void;
  /** The realtime session's start failed and is tried again (the service at capacity, or unreachable). */
  startRetrying: (event: RealtimeRetryingEvent) => void;
  /** The realtime session failed for good (the audio until then is stored), or the device went away. */
  failed: (error: ChartwrightError) => void;
  /** Audio was dropped: the socket has been down longer than the audio kept meanwhile. */
  audioDropped: () => void;
}

export interface RecordingOptions {
  /** The widget host's origin: the realtime socket is on the same service. */
  baseUrl: string;
  /** Mints a realtime token for the encounter (expiresAt on the local clock). */
  token: () => Promise<RealtimeTokenGrant>;
  input: AudioInput;
  handlers: RecordingHandlers;
  WebSocket?: WebSocketConstructor;
}

/**
 * Audio kept until the service acknowledges it: the utterance in progress (which a lost socket's
 * resume sends again whole, so it is decoded in context) and what is recorded while the socket is
 * down — two minutes in all, 3.8 MB of 16 kHz 16-bit mono, with attempts spread over about as long
 * (backoff up to 8 s each).
 */
const MAX_BUFFERED_AUDIO_MS = 120_000;
const MAX_RECONNECT_ATTEMPTS = 16;

/** One recording of the encounter: a realtime session fed by the audio input, paused and resumed at will. */
export class Recording {
  private paused = false;

  private constructor(
    private readonly realtimeSession: RealtimeSession,
    private readonly capture: AudioCapture,
  ) {}

  /** Opens the realtime session, then starts the audio; rejects (with nothing left open) when either fails. */
  static async start(options: RecordingOptions): Promise<Recording> {
    const { handlers } = options;
    const client = new Chartwright({
      apiKey: async () => (await options.token()).token,
      baseUrl: options.baseUrl,
      ...(options.WebSocket === undefined ? {} : { WebSocket: options.WebSocket }),
    });
    const realtimeSession = await client.realtime.connect({
      ...MICROPHONE_AUDIO_FORMAT,
      token: options.token,
      maxBufferedAudioMs: MAX_BUFFERED_AUDIO_MS,
      maxReconnectAttempts: MAX_RECONNECT_ATTEMPTS,
      onRetrying: handlers.startRetrying,
    });
    realtimeSession.on('partial', ({ text }) => handlers.partial(text));
    realtimeSession.on('final', ({ segment }) => handlers.final(segment, realtimeSession.sessionId));
    realtimeSession.on('reconnecting', ({ reason }) => {
      if (reason !== 'token_refresh') handlers.connection('reconnecting');
    });
    realtimeSession.on('reconnected', () => handlers.connection('online'));
    realtimeSession.on('close', ({ error }) => {
      if (error !== undefined) handlers.failed(error);
    });
    try {
      const capture = await options.input.start(realtimeSession, {
        onLevel: handlers.level,
        onError: (error) => {
          if (error.code === 'microphone_ended') handlers.failed(error);
          else handlers.audioDropped();
        },
      });
      return new Recording(realtimeSession, capture);
    } catch (error) {
      realtimeSession.close();
      throw error;
    }
  }

  get isPaused(): boolean {
    return this.paused;
  }

  pause(): void {
    if (this.paused || this.realtimeSession.closed) return;
    this.realtimeSession.pause();
    this.paused = true;
  }

  resume(): void {
    if (!this.paused || this.realtimeSession.closed) return;
    this.realtimeSession.resume();
    this.paused = false;
  }

  /**
   * Releases the audio device, then flushes: resolves once the last final has arrived (or at once
   * when the realtime session has already failed, its audio until then being stored).
   */
  async stop(): Promise<void> {
    await this.capture.stop();
    if (this.realtimeSession.closed) return;
    await this.realtimeSession.stop().catch(() => {
      // A realtime session that failed while stopping has said why through `failed`.
    });
  }
}
