/**
 * The engine-neutral recognizer layer the realtime WebSocket sits on. An engine turns 16 kHz mono
 * 16-bit PCM into utterance-level `final` segments (and interim `partial`s); everything above this
 * interface — framing, auth, storage, resampling of other client formats — is engine-agnostic.
 */
import type { RECOGNIZER_SAMPLE_RATE, RecognizerInfo } from '@chartwright/protocol';

import type { SpeakerRole } from './diarization/speaker-roles.js';

/** Why an engine cannot run here, and what makes it run: the command that installs it, or the setting it lacks. */
export type RecognizerStatus = { available: true } | { available: false; reason: string; installHint: string };

export interface RecognizerStreamOptions {
  /** Engines take one rate; callers resample (see resample.ts) before writing. */
  sampleRate: typeof RECOGNIZER_SAMPLE_RATE;
  /** Hints only: engines that cannot add words at run time (PocketSphinx) ignore them. */
  vocabulary?: readonly string[];
  /** The realtime session's BCP 47 tag (`en-US`); engines that serve one language ignore it. */
  language?: string;
  /**
   * One microphone hears everyone: label each final with the voice that spoke it (`speakerLabel`,
   * `speaker`). Off for a channel that carries one person (two-channel audio).
   */
  diarize?: boolean;
  /**
   * The stream resumes a session: the cepstral mean its last final reported (`FinalEvent`), so the
   * first utterance after the resume is heard as the ones before it were. Engines without one ignore it.
   */
  cepstralMean?: readonly number[];
}

/** Per channel of a session, the cepstral mean its last final reported; null for a channel with none. */
export type CepstralMeans = readonly (readonly number[] | null)[];

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

/**
 * How far the stream's audio is committed: every word before `ms` (stream time) is in a final
 * already emitted, and no utterance still to come began before it. Audio before it is no longer
 * needed to decode what follows, so a client may drop it and a resume decodes from no earlier.
 * Engines emit it as they go, never moving back; one that does not emit it leaves the session at
 * the end of the last final.
 */
export interface CommittedEvent {
  ms: number;
}

export interface FinalEvent {
  text: string;
  /** Relative to the stream's first sample. */
  startMs: number;
  endMs: number;
  words?: RecognizedWord[];
  /** The voice (`S1`, `S2`, … in order of appearance) when the stream was opened to diarize. */
  speakerLabel?: string;
  /** That voice's role as judged when the final came out. */
  speaker?: SpeakerRole;
  /**
   * The engine's running cepstral mean after this final (PocketSphinx): kept with the session so a
   * resume starts from it (`RecognizerStreamOptions.cepstralMean`). Never sent to clients.
   */
  cepstralMean?: number[];
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
  committed: CommittedEvent;
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

/** One decoding worker's work, for the metrics (docs/operations.md): totals since the recognizer started. */
export interface RecognizerWorkerLoad {
  /** Streams open on the worker now. */
  streams: number;
  /** Audio written to the worker's streams and not decoded yet, in seconds. */
  backlogSeconds: number;
  /** Audio it decoded, in seconds. */
  decodedSeconds: number;
  /** CPU time its process used (user and system), in seconds: with decodedSeconds, the real-time factor. */
  cpuSeconds: number;
}

export interface Recognizer {
  readonly name: string;
  /** What the clinician is told transcribes their audio (the widget shows it). */
  readonly info: RecognizerInfo;
  /** The primary language subtags it transcribes (`['en']`), or `'any'` when its server decides. */
  readonly languages: readonly string[] | 'any';
  status(): Promise<RecognizerStatus>;
  openStream(options: RecognizerStreamOptions): Promise<RecognizerStream>;
  /**
   * Each decoding worker's load, by its place in the pool (a replaced worker's totals carry on in
   * its place). Absent for an engine that decodes elsewhere (an OpenAI-compatible server).
   */
  load?(): RecognizerWorkerLoad[];
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
