/**
 * The engine-neutral recognizer layer the realtime WebSocket sits on. An engine turns 16 kHz mono
 * 16-bit PCM into utterance-level `final` segments (and interim `partial`s); everything above this
 * interface — framing, auth, storage, resampling of other client formats — is engine-agnostic.
 */
import type { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';

/** Why an engine cannot run here, and what makes it run: the command that installs it, or the setting it lacks. */
export type RecognizerStatus = { available: true } | { available: false; reason: string; installHint: string };

export interface RecognizerStreamOptions {
  /** Engines take one rate; callers resample (see resample.ts) before writing. */
  sampleRate: typeof RECOGNIZER_SAMPLE_RATE;
  /** Hints only: engines that cannot add words at run time (PocketSphinx) ignore them. */
  vocabulary?: readonly string[];
  /** The realtime session's BCP 47 tag (`en-US`); engines that serve one language ignore it. */
  language?: string;
}

export interface RecognizedWord {
  word: string;
  startMs: number;
  endMs: number;
  /** 0–1; absent when the engine computes no word posteriors (PocketSphinx with the second pass off). */
  confidence?: number;
}

export interface PartialEvent {
  text: string;
}

export interface FinalEvent {
  text: string;
  /** Relative to the stream's first sample. */
  startMs: number;
  endMs: number;
  words?: RecognizedWord[];
  /** The voice a diarizing engine heard (`S1`, `S2`…); absent when it tells voices apart no more than the channel does. */
  speakerLabel?: string;
  /** The role a diarizing engine gave that voice; absent when it does not judge roles. */
  speaker?: 'clinician' | 'patient' | 'unknown';
}

/** Stable codes a caller may branch on. */
export type RecognizerErrorCode =
  'recognizer_overloaded' | 'recognizer_crashed' | 'recognizer_unavailable' | 'recognizer_failed';

export interface RecognizerErrorEvent {
  code: RecognizerErrorCode;
  message: string;
}

export interface RecognizerEvents {
  partial: PartialEvent;
  final: FinalEvent;
  error: RecognizerErrorEvent;
}

export type RecognizerEventName = keyof RecognizerEvents;

export interface RecognizerStream {
  /** 16 kHz mono 16-bit little-endian PCM. Ignored after an `error` or `end()`. */
  write(pcm: Int16Array): void;
  /** End the current utterance now (its `final` follows, if it had any words). */
  finalize(): void;
  /** Flush, emit the last `final`, release the decoder. Resolves once the last event is emitted. */
  end(): Promise<void>;
  on<E extends RecognizerEventName>(event: E, listener: (payload: RecognizerEvents[E]) => void): this;
  off<E extends RecognizerEventName>(event: E, listener: (payload: RecognizerEvents[E]) => void): this;
}

export interface Recognizer {
  readonly name: string;
  /** The primary language subtags it transcribes (`['en']`), or `'any'` when its server decides. */
  readonly languages: readonly string[] | 'any';
  status(): Promise<RecognizerStatus>;
  openStream(options: RecognizerStreamOptions): Promise<RecognizerStream>;
  /** Ends every open stream's worker and releases the engine. */
  close(): Promise<void>;
}

/** Whether `recognizer` transcribes the BCP 47 `tag` (by its primary subtag: `en-GB` → `en`). */
export function servesLanguage(recognizer: Pick<Recognizer, 'languages'>, tag: string): boolean {
  if (recognizer.languages === 'any') return true;
  const primary = tag.split('-')[0]?.toLowerCase() ?? '';
  return recognizer.languages.includes(primary);
}

/** A failure with a stable code, thrown by `openStream` (e.g. when the engine is unavailable). */
export class RecognizerError extends Error {
  constructor(
    readonly code: RecognizerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RecognizerError';
  }
}
