import type { AudioEncoding } from '@chartwright/protocol';
import type { RealtimeRetryingEvent } from './events.js';

/** What a token callback returns: `realtime.tokens.create()`'s result fits as it is. */
export interface RealtimeTokenGrant {
  token: string;
  /** ISO 8601 time (or a Date) after which the token no longer opens a socket. */
  expiresAt: string | Date;
}

/**
 * Fetches a fresh temporary token, typically from your own backend, which mints it with
 * `realtime.tokens.create()`. Called before the first connection, `tokenRefreshMarginMs` before
 * each token expires, and whenever the service refuses the current one.
 */
export type RealtimeTokenCallback = () => Promise<RealtimeTokenGrant>;

export interface RealtimeConnectOptions {
  /** Encoding of the audio you `send()`: interleaved little-endian PCM. */
  encoding: AudioEncoding;
  /** Hz, 8000 to 48000; the service resamples to what its recognizer needs. */
  sampleRate: number;
  /** 2 = one speaker per channel (channel 0 the clinician, 1 the patient). Default 1. */
  channels?: 1 | 2;
  /** BCP 47 tag. Default `en-US`. */
  language?: string;
  /** Emit `partial` events while an utterance is in progress. Default `true`. */
  interimResults?: boolean;
  /** Words to favour (drug names…). */
  vocabulary?: readonly string[];
  /**
   * The socket's credential: a `svc_rt_` token, or a callback fetching one (which lets the
   * session refresh it before it expires and after the service refuses it). Absent, the
   * client's own `apiKey` is used (a permanent key from a server, a `svc_rt_` token in a browser).
   */
  token?: string | RealtimeTokenCallback;
  /** Fetch a fresh token this long before the current one expires (callback tokens only). Default 60000. */
  tokenRefreshMarginMs?: number;
  /**
   * Audio not yet acknowledged by the service is kept, up to this many milliseconds of it, to be
   * sent again after a reconnect; `send()` throws `RealtimeBufferOverflowError` beyond. The service
   * acknowledges audio only up to the start of the utterance in progress (up to 18 s long), so this
   * holds that utterance as well as the audio sent while a socket is down. Default 60000.
   */
  maxBufferedAudioMs?: number;
  /** Attempts to open a new socket after a lost one (and retries of the first) before the session fails. Default 5. */
  maxReconnectAttempts?: number;
  /** The realtime WebSocket's address. Default: the client's `baseUrl` with `ws(s)://…/api/v1/realtime`. */
  url?: string;
  /**
   * Called each time the first connection failed and is tried again after a backoff, before
   * `connect()` resolves: a service at capacity (`at_capacity`) refuses until a stream ends, so a
   * start can wait a minute or more, and an application says so rather than only "starting".
   */
  onRetrying?: (event: RealtimeRetryingEvent) => void;
}

export const REALTIME_DEFAULTS = Object.freeze({
  channels: 1,
  language: 'en-US',
  interimResults: true,
  tokenRefreshMarginMs: 60_000,
  maxBufferedAudioMs: 60_000,
  maxReconnectAttempts: 5,
} as const);
