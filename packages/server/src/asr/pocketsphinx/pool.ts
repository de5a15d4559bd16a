/**
 * Supervises the decoder worker processes. Each stream is pinned to the least-loaded worker; when
 * a worker dies (a native fault kills only its process) every stream it carried gets
 * `recognizer_crashed` and the worker is restarted, while other workers' streams carry on.
 */
import { fork, type ChildProcess } from 'node:child_process';

import { RecognizerError, type RecognizerErrorCode } from '../recognizer.js';
import { SETTINGS_ENV, type FromWorker, type ToWorker, type WorkerSettings } from './messages.js';
import { PocketSphinxStream } from './stream.js';

export interface PoolOptions {
  size: number;
  workerPath: string;
  settings: WorkerSettings;
  maxPendingSamples: number;
}

interface Worker {
  child: ChildProcess;
  startedAt: number;
  ready: Promise<void>;
  streams: Map<number, PocketSphinxStream>;
  opening: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
}

const MAX_RESTART_DELAY_MS = 5_000;

export class WorkerPool {
  private readonly workers: (Worker | undefined)[];
  private nextId = 1;
  private closed = false;
  /** Set when a worker reports that the library or model cannot load: restarting would not help. */
  unavailableReason: string | undefined;
  private failedStarts = 0;

  constructor(private readonly options: PoolOptions) {
    this.workers = Array.from({ length: options.size }, () => undefined);
  }

  start(): void {
    for (let slot = 0; slot < this.workers.length; slot++) this.workers[slot] ??= this.spawn(slot);
  }

  /** Process ids of the live workers (for supervision tests and diagnostics). */
  pids(): number[] {
    return this.workers.flatMap((worker) => (worker?.child.pid === undefined ? [] : [worker.child.pid]));
  }

  /** Resolves once every worker has loaded the model (or rejects if the engine is unavailable). */
  async ready(): Promise<void> {
    this.start();
    await Promise.all(this.workers.map((worker) => worker?.ready ?? Promise.resolve()));
  }

  async open(options: { diarize: boolean; cepstralMean: readonly number[] | null }): Promise<PocketSphinxStream> {
    if (this.closed) throw new RecognizerError('recognizer_unavailable', 'the recognizer is closed');
    this.start();
    const worker = this.leastLoaded();
    await worker.ready;
    const id = this.nextId++;
    const pid = worker.child.pid ?? 0;
    const send = (message: ToWorker): void => {
      if (worker.child.connected) worker.child.send(message);
    };
    const limits = {
      maxPendingSamples: this.options.maxPendingSamples,
      maxUtteranceSamples: this.options.settings.maxUtteranceSamples,
    };
    const stream = new PocketSphinxStream(id, pid, send, limits, (done) => worker.streams.delete(done));
    await new Promise<void>((resolve, reject) => {
      worker.opening.set(id, { resolve, reject });
      send({ type: 'open', id, diarize: options.diarize, cepstralMean: options.cepstralMean });
    });
    worker.streams.set(id, stream);
    return stream;
  }

  async close(): Promise<void> {
    this.closed = true;
    const exits = this.workers.map(async (worker) => {
      if (worker?.child.exitCode !== null || worker.child.signalCode !== null) return;
      const exited = new Promise((resolve) => worker.child.once('exit', resolve));
      worker.child.kill('SIGTERM');
      await exited;
    });
    await Promise.all(exits);
  }

  private leastLoaded(): Worker {
    let best: Worker | undefined;
    for (const worker of this.workers) {
      if (worker === undefined) continue;
      if (best === undefined || worker.streams.size + worker.opening.size < best.streams.size + best.opening.size) {
        best = worker;
      }
    }
    if (best === undefined) throw new RecognizerError('recognizer_unavailable', 'no recognizer worker is running');
    return best;
  }

  private spawn(slot: number): Worker {
    const child = fork(this.options.workerPath, [], {
      serialization: 'advanced',
      env: { ...process.env, [SETTINGS_ENV]: JSON.stringify(this.options.settings) },
      // The worker's own stdout/stderr stay the service's; the library's log is off (native.ts).
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let markReady!: () => void;
    let markUnavailable!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markUnavailable = reject;
    });
    // Callers that never wait on readiness must not see an unhandled rejection.
    ready.catch(() => undefined);
    const worker: Worker = { child, startedAt: Date.now(), ready, streams: new Map(), opening: new Map() };

    child.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
          this.failedStarts = 0;
          markReady();
          return;
        case 'unavailable':
          this.unavailableReason = message.reason;
          markUnavailable(new RecognizerError('recognizer_unavailable', message.reason));
          return;
        case 'opened':
          worker.opening.get(message.id)?.resolve();
          worker.opening.delete(message.id);
          return;
        case 'failed':
          if (worker.opening.has(message.id)) {
            worker.opening.get(message.id)?.reject(new RecognizerError(message.code, message.message));
            worker.opening.delete(message.id);
            return;
          }
          worker.streams.get(message.id)?.receive(message);
          return;
        case 'partial':
        case 'final':
        case 'decoded':
        case 'ended':
          worker.streams.get(message.id)?.receive(message);
          return;
      }
    });
    child.on('error', () => {
      // Spawn or IPC failure: 'exit' follows and does the cleanup.
    });
    child.once('exit', (code, signal) => this.onExit(slot, worker, code, signal));
    return worker;
  }

  private onExit(slot: number, worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.closed) {
      markFailed(worker, 'recognizer_unavailable', 'the recognizer was closed');
    } else {
      markFailed(
        worker,
        'recognizer_crashed',
        `the recognizer process exited (${signal ?? `code ${code ?? 'unknown'}`}); reopen the stream`,
      );
    }
    if (this.workers[slot] === worker) this.workers[slot] = undefined;
    if (this.closed || this.unavailableReason !== undefined) return;
    // A worker that dies right after starting is likely to again: back off rather than spin.
    if (Date.now() - worker.startedAt < 1_000) this.failedStarts++;
    const delay = this.failedStarts === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** this.failedStarts);
    setTimeout(() => {
      if (!this.closed && this.workers[slot] === undefined) this.workers[slot] = this.spawn(slot);
    }, delay).unref();
  }
}

function markFailed(worker: Worker, code: RecognizerErrorCode, why: string): void {
  for (const pending of worker.opening.values()) pending.reject(new RecognizerError(code, why));
  worker.opening.clear();
  for (const stream of [...worker.streams.values()]) stream.fail(code, why);
  worker.streams.clear();
}
