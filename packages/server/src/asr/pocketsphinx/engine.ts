/**
 * The PocketSphinx recognizer: decoding happens in a pool of supervised worker processes, never
 * in the service process. Vocabulary hints are accepted and ignored: `ps_add_word` crashes the
 * stock model after a few words, so domain vocabulary must come from an offline-built model.
 */
import { RECOGNIZER_SAMPLE_RATE as SAMPLE_RATE } from '@chartwright/protocol';

import { compiledModulePath } from '../../compiled-module.js';
import {
  RecognizerError,
  type Recognizer,
  type RecognizerStatus,
  type RecognizerStream,
  type RecognizerStreamOptions,
  type RecognizerWorkerLoad,
} from '../recognizer.js';
import { checkInstallation, decoderArgs, DEFAULT_OPTIONS, unavailable, type PocketSphinxOptions } from './config.js';
import { WorkerPool } from './pool.js';
import type { PocketSphinxStream } from './stream.js';

/** The compiled worker next to this module. */
export function defaultWorkerPath(): string {
  return compiledModulePath(import.meta.url, './worker.js');
}

export class PocketSphinxRecognizer implements Recognizer {
  readonly name = 'pocketsphinx';
  readonly info = { kind: 'embedded', name: 'PocketSphinx' } as const;
  // The acoustic model and dictionary Debian ships are US English.
  readonly languages = ['en'] as const;
  private readonly options: PocketSphinxOptions;
  private readonly pool: WorkerPool;

  constructor(options: Partial<PocketSphinxOptions> & { workerPath?: string } = {}) {
    const { workerPath, ...rest } = options;
    this.options = { ...DEFAULT_OPTIONS, ...rest };
    this.pool = new WorkerPool({
      size: this.options.workers,
      workerPath: workerPath ?? defaultWorkerPath(),
      maxPendingSamples: (this.options.maxPendingMs * SAMPLE_RATE) / 1000,
      settings: {
        libraryPath: this.options.libraryPath,
        decoderArgs: decoderArgs(this.options),
        partialIntervalSamples: (this.options.partialIntervalMs * SAMPLE_RATE) / 1000,
        maxUtteranceSamples: (this.options.maxUtteranceMs * SAMPLE_RATE) / 1000,
        cepstralPrior: this.options.cepstralPrior,
      },
    });
  }

  status(): Promise<RecognizerStatus> {
    const installed = checkInstallation(this.options);
    if (!installed.available) return Promise.resolve(installed);
    if (this.pool.unavailableReason !== undefined) return Promise.resolve(unavailable(this.pool.unavailableReason));
    return Promise.resolve(installed);
  }

  async openStream(options: RecognizerStreamOptions): Promise<RecognizerStream & PocketSphinxStream> {
    if ((options.sampleRate as number) !== SAMPLE_RATE) {
      throw new RangeError(`PocketSphinx streams take ${SAMPLE_RATE} Hz audio`);
    }
    const status = await this.status();
    if (!status.available) {
      throw new RecognizerError('recognizer_unavailable', `${status.reason}; install it with: ${status.installHint}`);
    }
    return this.pool.open({ diarize: options.diarize ?? false, cepstralMean: options.cepstralMean ?? null });
  }

  /** Starts the workers and waits for their models to load (optional: streams wait anyway). */
  warmUp(): Promise<void> {
    return this.pool.ready();
  }

  load(): RecognizerWorkerLoad[] {
    return this.pool.load();
  }

  /** Live worker process ids, for supervision tests. */
  workerPids(): number[] {
    return this.pool.pids();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
