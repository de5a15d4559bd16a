/**
 * Where PocketSphinx lives on a Debian system, how it is tuned for streaming, and how to tell
 * whether it can run here. Checking status loads nothing into the service process: it looks for
 * files only, and the first worker to start confirms the library really loads.
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

import type { RecognizerStatus } from '../recognizer.js';
import { vocabularyFiles, type VocabularyFiles } from '../vocabularies.js';
import { readCepstralPrior } from './cepstral-prior.js';
import { END_OF_SPEECH_FRAMES } from './decoder-session.js';

export const INSTALL_COMMAND = 'apt-get install -y libpocketsphinx3 pocketsphinx-en-us';

export interface PocketSphinxOptions {
  /** A soname (resolved by the dynamic loader) or an absolute path. */
  libraryPath: string;
  /** Holds `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDirectory: string;
  /** Worker processes; one per core by default. */
  workers: number;
  /** Audio written but not yet decoded before a stream is failed as overloaded. */
  maxPendingMs: number;
  /** Interval, in audio time, between partial hypotheses. */
  partialIntervalMs: number;
  /** Longest utterance before it is cut: ending a long utterance costs more, and finals come late. */
  maxUtteranceMs: number;
  /** Extra decoder arguments (e.g. `-vad_postspeech 40`). */
  extraArgs: readonly string[];
  /**
   * Re-decode each utterance when it ends with a flat lexicon (`-fwdflat yes`): fewer word errors
   * for more CPU and a final later by a fraction of the utterance's length (docs/realtime.md,
   * "Accuracy or throughput").
   */
  secondPass: boolean;
  /** Language model and dictionary replacing the stock ones (the clinical vocabulary); null = stock. */
  vocabulary: VocabularyFiles | null;
  /**
   * Where a new stream's cepstral mean starts, in place of the acoustic model's own (which the
   * model's feat.params fixes; `-cmninit` cannot override it). Null keeps the model's.
   */
  cepstralPrior: readonly number[] | null;
}

export const DEFAULT_OPTIONS: PocketSphinxOptions = {
  libraryPath: 'libpocketsphinx.so.3',
  modelDirectory: '/usr/share/pocketsphinx/model/en-us',
  workers: Math.max(1, cpus().length),
  maxPendingMs: 10_000,
  partialIntervalMs: 250,
  maxUtteranceMs: 18_000,
  extraArgs: [],
  secondPass: false,
  // The measured winner on accuracy and CPU (docs/realtime.md, "Clinical vocabulary").
  vocabulary: vocabularyFiles('clinical'),
  cepstralPrior: readCepstralPrior(),
};

export function modelFiles(options: Pick<PocketSphinxOptions, 'modelDirectory' | 'vocabulary'>): {
  hmm: string;
  lm: string;
  dict: string;
} {
  return {
    hmm: join(options.modelDirectory, 'en-us'),
    lm: options.vocabulary?.lm ?? join(options.modelDirectory, 'en-us.lm.bin'),
    dict: options.vocabulary?.dict ?? join(options.modelDirectory, 'cmudict-en-us.dict'),
  };
}

/**
 * Decoder arguments. The search itself is single pass by default, so ending an utterance costs
 * milliseconds, not the second or so a flat-lexicon pass over a long utterance takes. The best path
 * through the word lattice the search leaves (`-bestpath`) is always taken: it rescores with the
 * whole trigram context, removes about a tenth of the word errors for a few milliseconds per
 * utterance, and gives each word a posterior, reported as its confidence.
 */
export function decoderArgs(options: PocketSphinxOptions): string[] {
  const files = modelFiles(options);
  return [
    ...['-hmm', files.hmm, '-lm', files.lm, '-dict', files.dict],
    ...['-fwdflat', options.secondPass ? 'yes' : 'no', '-bestpath', 'yes'],
    // End an utterance after 0.3 s of silence rather than the default 0.5 s: a final's latency is
    // mostly this wait, and clinical speech pauses between phrases are longer than this.
    ...['-vad_postspeech', String(END_OF_SPEECH_FRAMES)],
    ...(options.vocabulary?.args ?? []),
    ...options.extraArgs,
  ];
}

const LIBRARY_DIRECTORIES = [
  '/usr/lib/x86_64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib/arm-linux-gnueabihf',
  '/usr/lib/i386-linux-gnu',
  '/usr/lib64',
  '/usr/lib',
  '/usr/local/lib',
];

function libraryPresent(libraryPath: string): boolean {
  if (libraryPath.includes('/')) return existsSync(libraryPath);
  const extra = (process.env['LD_LIBRARY_PATH'] ?? '').split(':').filter((d) => d !== '');
  return [...extra, ...LIBRARY_DIRECTORIES].some((directory) => existsSync(join(directory, libraryPath)));
}

export function checkInstallation(
  options: Pick<PocketSphinxOptions, 'libraryPath' | 'modelDirectory' | 'vocabulary'>,
): RecognizerStatus {
  if (!libraryPresent(options.libraryPath)) {
    return unavailable(`the PocketSphinx library (${options.libraryPath}) is not installed`);
  }
  const missing = Object.values(modelFiles(options)).filter((file) => !existsSync(file));
  if (missing.length > 0) return unavailable(`the PocketSphinx model is missing (${missing.join(', ')})`);
  return { available: true };
}

export function unavailable(reason: string): RecognizerStatus {
  return { available: false, reason, installHint: INSTALL_COMMAND };
}
