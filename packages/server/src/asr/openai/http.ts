/**
 * One POST of an utterance to an OpenAI-compatible `/audio/transcriptions`, and what its failures
 * mean. Failure messages name statuses and network error codes only: never the key, the server's
 * reply (it may echo the prompt) or a transcript.
 */
import { authorizationHeader, readCapped, ReplyTooLargeError, type FetchFunction } from '../../openai-http.js';
import type { RecognizerErrorCode } from '../recognizer.js';
import { transcriptionSchema, type Transcription } from './reply.js';

/** A transcript of at most ~20 s of speech is a few KB: anything past this is not one. */
const MAX_REPLY_BYTES = 1024 * 1024;

/** `verbose_json` has word and segment times; plain `json` only text (e.g. gpt-4o-transcribe). */
export type ResponseFormat = 'verbose_json' | 'json';

export interface TranscriptionRequest {
  /** `{baseUrl}/audio/transcriptions`. */
  url: string;
  apiKey: string | undefined;
  model: string;
  wav: Uint8Array<ArrayBuffer>;
  format: ResponseFormat;
  /** ISO 639-1, e.g. `en`. */
  language: string | undefined;
  prompt: string | undefined;
  signal: AbortSignal;
  fetch: FetchFunction;
}

/**
 * Why a transcription failed:
 * - `credentials_refused`: 401/403, the key is wrong or lacks access;
 * - `unreachable`: no HTTP answer at all (refused connection, DNS, reset);
 * - `timeout`: no complete answer within the configured time;
 * - `http_status`: any other non-2xx status;
 * - `invalid_reply`: a 2xx whose body is not a transcription.
 */
export type TranscriptionFailureReason =
  'credentials_refused' | 'unreachable' | 'timeout' | 'http_status' | 'invalid_reply';

export class TranscriptionFailure extends Error {
  constructor(
    readonly reason: TranscriptionFailureReason,
    message: string,
    readonly details: {
      status?: number;
      /** Worth another attempt: a connection error, 408, 409, 429 or 5xx. */
      retryable?: boolean;
      /** The server's `Retry-After`, when it sent one. */
      retryAfterMs?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TranscriptionFailure';
  }

  /** The recognizer error code a stream reports for it. */
  get code(): RecognizerErrorCode {
    return this.reason === 'credentials_refused' || this.reason === 'unreachable'
      ? 'recognizer_unavailable'
      : 'recognizer_failed';
  }
}

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** `Retry-After` in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The network error code behind a failed fetch (`ECONNREFUSED`, `ENOTFOUND`…), when there is one. */
function networkCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : undefined;
}

function formData(request: TranscriptionRequest): FormData {
  const form = new FormData();
  form.append('file', new Blob([request.wav], { type: 'audio/wav' }), 'utterance.wav');
  form.append('model', request.model);
  form.append('response_format', request.format);
  if (request.format === 'verbose_json') {
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
  }
  if (request.language !== undefined) form.append('language', request.language);
  if (request.prompt !== undefined) form.append('prompt', request.prompt);
  return form;
}

/**
 * Throws a `TranscriptionFailure` for anything but a usable reply; an abort of `signal` surfaces
 * as whatever fetch throws, for the caller to tell a timeout from a stream that went away.
 */
export async function postTranscription(request: TranscriptionRequest): Promise<Transcription> {
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method: 'POST',
      headers: { accept: 'application/json', ...authorizationHeader(request.apiKey) },
      body: formData(request),
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    const code = networkCode(error);
    throw new TranscriptionFailure(
      'unreachable',
      `the transcription server could not be reached${code === undefined ? '' : ` (${code})`}`,
      { retryable: true, cause: error },
    );
  }
  const status = response.status;
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    if (status === 401 || status === 403) {
      throw new TranscriptionFailure(
        'credentials_refused',
        `the transcription server refused the engine's credentials (HTTP ${status}); check ASR_OPENAI_API_KEY`,
        { status },
      );
    }
    const retryAfter = retryAfterMs(response.headers.get('retry-after'));
    throw new TranscriptionFailure('http_status', `the transcription server answered HTTP ${status}`, {
      status,
      retryable: RETRYABLE_STATUSES.has(status) || status >= 500,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    });
  }
  let text: string;
  try {
    text = await readCapped(response, MAX_REPLY_BYTES);
  } catch (error) {
    if (request.signal.aborted) throw error;
    const message =
      error instanceof ReplyTooLargeError ? error.message : 'the transcription server’s reply could not be read';
    throw new TranscriptionFailure('invalid_reply', message, { status, cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TranscriptionFailure('invalid_reply', 'the transcription server’s reply is not JSON', { status });
  }
  const parsed = transcriptionSchema.safeParse(json);
  if (!parsed.success) {
    throw new TranscriptionFailure('invalid_reply', 'the transcription server’s reply is not a transcription', {
      status,
    });
  }
  return parsed.data;
}
