/**
 * Transcribes utterances for every stream of one engine: bounded concurrency, a timeout per
 * attempt, bounded retries with backoff for what may pass (connection errors, 408, 409, 429, 5xx;
 * `Retry-After` honoured), and one step down from `verbose_json` to plain `json` for servers that
 * refuse it (OpenAI's gpt-4o-transcribe models answer 400 to `verbose_json`).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { BaseLogger } from 'pino';

import { openAiEndpoint, type FetchFunction } from '../../openai-http.js';
import { encodeWav } from '../wav.js';
import { postTranscription, TranscriptionFailure, type ResponseFormat } from './http.js';
import { ConcurrencyLimit } from './limiter.js';
import type { Transcription } from './reply.js';

/** What the engine logs with: pino's, or Fastify's logger, which is one. */
export type TranscriberLogger = Pick<BaseLogger, 'debug' | 'warn'>;

export interface TranscriberOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** One attempt's limit, from sending the audio to the last byte of the reply. */
  timeoutMs: number;
  maxConcurrentRequests: number;
  /** Attempts after the first for a failure that may pass. */
  retries: number;
  /** The first backoff; each further one doubles, up to `retryMaxDelayMs` (jittered down by ≤ 25%). */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  fetch: FetchFunction;
  logger: TranscriberLogger | undefined;
}

export interface UtteranceRequest {
  samples: Int16Array;
  sampleRate: number;
  language: string | undefined;
  prompt: string | undefined;
}

const ENGINE = 'openai';

export class Transcriber {
  private readonly url: string;
  private readonly limit: ConcurrencyLimit;
  /** Drops to `json` for good once the server refuses `verbose_json` and takes `json`. */
  private format: ResponseFormat = 'verbose_json';

  constructor(private readonly options: TranscriberOptions) {
    if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
      throw new RangeError('timeoutMs must be a positive number of milliseconds');
    }
    this.url = openAiEndpoint(options.baseUrl, 'audio/transcriptions');
    this.limit = new ConcurrencyLimit(options.maxConcurrentRequests);
  }

  /**
   * The utterance's transcription, or a `TranscriptionFailure` once retries are spent. An abort of
   * `signal` (the stream ended or failed) rejects with the signal's reason.
   */
  async transcribe(utterance: UtteranceRequest, signal: AbortSignal): Promise<Transcription> {
    const wav = encodeWav(utterance.samples, utterance.sampleRate);
    const audioMs = Math.round((utterance.samples.length * 1000) / utterance.sampleRate);
    const started = performance.now();
    let format = this.format;
    for (let attempt = 1; ; attempt++) {
      try {
        const reply = await this.attempt(wav, format, utterance, signal);
        if (format !== this.format) {
          this.format = format;
          this.options.logger?.warn(
            { engine: ENGINE, model: this.options.model },
            'transcription server refuses verbose_json; asking for json (text without times) from now on',
          );
        }
        this.options.logger?.debug(
          { engine: ENGINE, model: this.options.model, audioMs, attempts: attempt, durationMs: elapsed(started) },
          'transcription received',
        );
        return reply;
      } catch (error) {
        signal.throwIfAborted();
        if (!(error instanceof TranscriptionFailure)) throw error;
        const status = error.details.status;
        if (status === 400 && format === 'verbose_json') {
          // Kept for later requests only if the server takes json: a 400 may have other causes.
          format = 'json';
          attempt -= 1; // a change of format, not a retry
          continue;
        }
        if (error.details.retryable !== true || attempt > this.options.retries) {
          this.options.logger?.warn(
            { engine: ENGINE, model: this.options.model, reason: error.reason, status, attempts: attempt },
            'transcription failed',
          );
          throw attempt > 1
            ? new TranscriptionFailure(
                error.reason,
                `${error.message}; gave up after ${attempt} attempts`,
                error.details,
              )
            : error;
        }
        const delayMs = this.backoff(attempt, error.details.retryAfterMs);
        this.options.logger?.warn(
          { engine: ENGINE, model: this.options.model, reason: error.reason, status, attempt, delayMs },
          'transcription failed; retrying',
        );
        await sleep(delayMs, undefined, { signal });
      }
    }
  }

  private async attempt(
    wav: Uint8Array<ArrayBuffer>,
    format: ResponseFormat,
    utterance: UtteranceRequest,
    signal: AbortSignal,
  ): Promise<Transcription> {
    const release = await this.limit.acquire(signal);
    // The timeout starts once a slot is ours: waiting for one is bounded by the stream's backlog.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.options.timeoutMs);
    try {
      return await postTranscription({
        url: this.url,
        apiKey: this.options.apiKey,
        model: this.options.model,
        wav,
        format,
        language: utterance.language,
        prompt: utterance.prompt,
        signal: AbortSignal.any([signal, timeout.signal]),
        fetch: this.options.fetch,
      });
    } catch (error) {
      if (timeout.signal.aborted && !signal.aborted) {
        throw new TranscriptionFailure('timeout', `no transcription within ${this.options.timeoutMs} ms`, {
          cause: error,
        });
      }
      throw error;
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  private backoff(attempt: number, retryAfterMs: number | undefined): number {
    const { retryBaseDelayMs: base, retryMaxDelayMs: max } = this.options;
    if (retryAfterMs !== undefined) return Math.min(max, retryAfterMs);
    return Math.round(Math.min(max, base * 2 ** (attempt - 1)) * (1 - Math.random() * 0.25));
  }
}

const elapsed = (started: number) => Math.round(performance.now() - started);
