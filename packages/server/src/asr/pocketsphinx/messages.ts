/**
 * The IPC between the pool (service process) and a decoder worker. Sent with the `advanced`
 * serialization, so audio travels as an Int16Array without JSON or base64.
 */
import type { FinalEvent, RecognizerErrorCode } from '../recognizer.js';

export type ToWorker =
  /**
   * `diarize`: label finals with their voice (one microphone, several people). `cepstralMean`: the
   * mean a resumed session's last final reported, or null for a stream that starts cold.
   */
  | { type: 'open'; id: number; diarize: boolean; cepstralMean: readonly number[] | null }
  | { type: 'audio'; id: number; pcm: Int16Array }
  | { type: 'finalize'; id: number }
  /** End normally: flush the last utterance, then `ended`. */
  | { type: 'end'; id: number }
  /** Drop the stream without a last final (overload or caller gone). */
  | { type: 'abort'; id: number };

export type FromWorker =
  | { type: 'ready' }
  /** The worker cannot decode at all (library or model missing); it exits after sending this. */
  | { type: 'unavailable'; reason: string }
  | { type: 'opened'; id: number }
  | { type: 'partial'; id: number; text: string }
  | ({ type: 'final'; id: number } & FinalEvent)
  /** Samples decoded so far, so the parent can bound what is still queued. */
  | { type: 'decoded'; id: number; samples: number }
  /** What the worker has done since it started, every stream together: reported while it decodes. */
  | { type: 'usage'; cpuMicros: number; decodedSamples: number }
  | { type: 'ended'; id: number }
  | { type: 'failed'; id: number; code: RecognizerErrorCode; message: string };

export interface WorkerSettings {
  libraryPath: string;
  decoderArgs: readonly string[];
  partialIntervalSamples: number;
  maxUtteranceSamples: number;
  /** Where a cold stream's cepstral mean starts (models/cepstral-prior.json); null: the model's own. */
  cepstralPrior: readonly number[] | null;
}

/** Settings reach the worker in an environment variable, before any message can. */
export const SETTINGS_ENV = 'CHARTWRIGHT_ASR_WORKER';
