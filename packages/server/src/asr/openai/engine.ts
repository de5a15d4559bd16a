/**
 * The OpenAI-compatible transcription engine (`ASR_ENGINE=openai`): for self-hosted Whisper
 * servers (speaches / faster-whisper-server, whisper.cpp server, LocalAI, vLLM) and hosted APIs.
 * Speech detection runs here (see vad.ts); each utterance goes to `{baseUrl}/audio/transcriptions`
 * as a 16 kHz mono WAV file. A one-microphone stream's voices are told apart in a worker thread
 * (diarization-thread-client.ts), as the embedded engine's workers do for theirs.
 *
 * `status()` reports the engine available whenever it is configured: it makes no request, so
 * `/readyz` neither spends transcription money nor depends on a third party. A wrong key or an
 * unreachable server shows on the first utterance, as a coded error of that realtime session.
 *
 * Logs engine, model, statuses, attempts, audio lengths and timings; never audio, transcripts,
 * prompts or the key.
 */
import { RECOGNIZER_SAMPLE_RATE as SAMPLE_RATE, type RecognizerInfo } from '@chartwright/protocol';

import type { FetchFunction } from '../../openai-http.js';
import { DiarizationThread } from '../diarization/diarization-thread-client.js';
import {
  RecognizerError,
  type Recognizer,
  type RecognizerStatus,
  type RecognizerStream,
  type RecognizerStreamOptions,
} from '../recognizer.js';
import type { VadOptions } from '../vad.js';
import { OpenAiStream } from './stream.js';
import { Transcriber, type TranscriberLogger } from './transcriber.js';

export interface OpenAiRecognizerOptions {
  /** The API root, `/audio/transcriptions` is appended: `http://localhost:8000/v1`, `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when given and non-empty; local servers need none. */
  apiKey?: string;
  /** The model name the server knows: `whisper-1`, `Systran/faster-whisper-small.en` … */
  model: string;
  /** One request's limit. */
  timeoutMs: number;
  /** Requests in flight at once across every stream; the rest wait their turn. */
  maxConcurrentRequests: number;
  /** Audio cut into utterances but not yet transcribed, per stream, before it fails as overloaded. */
  maxPendingMs?: number;
  /** Attempts after the first for connection errors, 408, 409, 429 and 5xx. */
  retries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Speech detection tuning; the defaults suit conversational speech. */
  vad?: Partial<VadOptions>;
  /** Defaults to the global fetch. */
  fetch?: FetchFunction;
  logger?: TranscriberLogger;
}

const DEFAULTS = Object.freeze({
  maxPendingMs: 30_000,
  retries: 2,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 8_000,
});

/** Whisper's primary language subtag: `en-US` → `en`. */
export function languageOf(tag: string | undefined): string | undefined {
  const primary = tag?.split('-')[0]?.toLowerCase();
  return primary === undefined || primary === '' ? undefined : primary;
}

/**
 * Vocabulary hints as a Whisper prompt: the model continues from it, so the terms' spellings become
 * likely. Whisper reads the last 224 tokens of a prompt; a longer list loses its first terms.
 */
export function promptOf(vocabulary: readonly string[] | undefined): string | undefined {
  const terms = (vocabulary ?? []).map((term) => term.trim()).filter((term) => term !== '');
  return terms.length === 0 ? undefined : `${terms.join(', ')}.`;
}

export class OpenAiRecognizer implements Recognizer {
  readonly name = 'openai';
  readonly info: RecognizerInfo;
  // Whisper-class models transcribe dozens of languages; the server refuses what its model cannot.
  readonly languages = 'any';
  private readonly transcriber: Transcriber;
  private readonly maxPendingSamples: number;
  private readonly streams = new Set<OpenAiStream>();
  /** Voices for one-microphone streams, told apart off the event loop; started with the first such stream. */
  private readonly diarization: DiarizationThread;
  private closed = false;

  constructor(private readonly options: OpenAiRecognizerOptions) {
    const defaults = { ...DEFAULTS, ...options };
    // The model's name only: the server's address and key stay out of what clinicians see.
    this.info = { kind: 'transcription_server', name: options.model };
    this.maxPendingSamples = (defaults.maxPendingMs * SAMPLE_RATE) / 1000;
    this.diarization = new DiarizationThread({ logger: options.logger });
    this.transcriber = new Transcriber({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      model: options.model,
      timeoutMs: options.timeoutMs,
      maxConcurrentRequests: options.maxConcurrentRequests,
      retries: defaults.retries,
      retryBaseDelayMs: defaults.retryBaseDelayMs,
      retryMaxDelayMs: defaults.retryMaxDelayMs,
      fetch: options.fetch ?? globalThis.fetch,
      logger: options.logger,
    });
  }

  status(): Promise<RecognizerStatus> {
    return Promise.resolve({ available: true });
  }

  openStream(options: RecognizerStreamOptions): Promise<RecognizerStream> {
    if ((options.sampleRate as number) !== SAMPLE_RATE) {
      return Promise.reject(new RangeError(`OpenAI-compatible streams take ${SAMPLE_RATE} Hz audio`));
    }
    if (this.closed) {
      return Promise.reject(new RecognizerError('recognizer_unavailable', 'the recognizer is closed'));
    }
    const stream = new OpenAiStream(
      this.transcriber,
      {
        sampleRate: SAMPLE_RATE,
        language: languageOf(options.language),
        prompt: promptOf(options.vocabulary),
        maxPendingSamples: this.maxPendingSamples,
        vad: this.options.vad ?? {},
        diarizer: options.diarize === true ? this.diarization.open() : null,
      },
      (done) => this.streams.delete(done),
    );
    this.streams.add(stream);
    return Promise.resolve(stream);
  }

  /** Open streams fail as `recognizer_unavailable` and their requests are aborted. */
  close(): Promise<void> {
    this.closed = true;
    for (const stream of this.streams) stream.fail('recognizer_unavailable', 'the recognizer is closed');
    return this.diarization.close();
  }
}
