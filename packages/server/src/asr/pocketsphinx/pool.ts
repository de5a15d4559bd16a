/**
 * Supervises the decoder worker processes. Each stream is pinned to the least-loaded worker; when
 * a worker dies (a native fault kills only its process) every stream it carried gets
 * `recognizer_crashed` and the worker is restarted, while other workers' streams carry on.
 */
import { RECOGNIZER_SAMPLE_RATE as SAMPLE_RATE } from '@chartwright/protocol';

import { WorkerSupervisor, type SupervisedWorker } from '../../worker-supervisor.js';
import { RecognizerError, type RecognizerErrorCode, type RecognizerWorkerLoad } from '../recognizer.js';
import { SETTINGS_ENV, type FromWorker, type ToWorker, type WorkerSettings } from './messages.js';
import { PocketSphinxStream } from './stream.js';

export interface PoolOptions {
  size: number;
  workerPath: string;
  settings: WorkerSettings;
  maxPendingSamples: number;
}

/** What a worker has done since it started, as it last reported (`usage`). */
interface Usage {
  cpuMicros: number;
  decodedSamples: number;
}

/** The streams a worker carries, those it is opening, and its work so far. */
interface Streams {
  streams: Map<number, PocketSphinxStream>;
  opening: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
  usage: Usage;
}

type Worker = SupervisedWorker<Streams>;

export class WorkerPool {
  private readonly supervisor: WorkerSupervisor<Streams, FromWorker>;
  private nextId = 1;
  /** Per slot, the work of its workers that exited, so its totals carry on across a replacement. */
  private readonly carried: Usage[];
  /** Set when a worker reports that the library or model cannot load: restarting would not help. */
  unavailableReason: string | undefined;

  constructor(private readonly options: PoolOptions) {
    this.carried = Array.from({ length: options.size }, () => ({ cpuMicros: 0, decodedSamples: 0 }));
    this.supervisor = new WorkerSupervisor<Streams, FromWorker>({
      size: options.size,
      workerPath: () => options.workerPath,
      settingsVariable: SETTINGS_ENV,
      settings: options.settings,
      newState: () => ({ streams: new Map(), opening: new Map(), usage: { cpuMicros: 0, decodedSamples: 0 } }),
      onMessage: (worker, message) => this.receive(worker, message),
      onExit: (worker, how) => {
        this.carryUsage(worker);
        if (this.supervisor.closed) {
          markFailed(worker.state, 'recognizer_unavailable', 'the recognizer was closed');
        } else {
          markFailed(worker.state, 'recognizer_crashed', `the recognizer process exited (${how}); reopen the stream`);
        }
      },
      exitedBeforeReady: () => new RecognizerError('recognizer_crashed', 'the recognizer process exited at start'),
      replaceable: () => this.unavailableReason === undefined,
    });
  }

  start(): void {
    this.supervisor.start();
  }

  /** Process ids of the live workers (for supervision tests and diagnostics). */
  pids(): number[] {
    return this.supervisor.pids();
  }

  /** Resolves once every worker has loaded the model (or rejects if the engine is unavailable). */
  async ready(): Promise<void> {
    this.start();
    await Promise.all(this.supervisor.workers().map((worker) => worker.started));
  }

  async open(options: { diarize: boolean; cepstralMean: readonly number[] | null }): Promise<PocketSphinxStream> {
    if (this.supervisor.closed) throw new RecognizerError('recognizer_unavailable', 'the recognizer is closed');
    this.start();
    const worker = this.leastLoaded();
    await worker.started;
    const { streams, opening } = worker.state;
    const id = this.nextId++;
    const pid = worker.child.pid ?? 0;
    const send = (message: ToWorker): void => {
      if (worker.child.connected) worker.child.send(message);
    };
    const limits = {
      maxPendingSamples: this.options.maxPendingSamples,
      maxUtteranceSamples: this.options.settings.maxUtteranceSamples,
    };
    const stream = new PocketSphinxStream(id, pid, send, limits, (done) => streams.delete(done));
    await new Promise<void>((resolve, reject) => {
      opening.set(id, { resolve, reject });
      send({ type: 'open', id, diarize: options.diarize, cepstralMean: options.cepstralMean });
    });
    streams.set(id, stream);
    return stream;
  }

  async close(): Promise<void> {
    await this.supervisor.close();
  }

  /** Each slot's backlog now, and its workers' totals (see Recognizer.load). */
  load(): RecognizerWorkerLoad[] {
    const live = new Map(this.supervisor.workers().map((worker) => [worker.slot, worker.state]));
    return this.carried.map((carried, slot) => {
      const state = live.get(slot);
      let pending = 0;
      for (const stream of state?.streams.values() ?? []) pending += stream.pendingSamples;
      return {
        streams: state?.streams.size ?? 0,
        backlogSeconds: pending / SAMPLE_RATE,
        decodedSeconds: (carried.decodedSamples + (state?.usage.decodedSamples ?? 0)) / SAMPLE_RATE,
        cpuSeconds: (carried.cpuMicros + (state?.usage.cpuMicros ?? 0)) / 1e6,
      };
    });
  }

  /** Keeps an exited worker's totals in its slot, for its replacement to add to. */
  private carryUsage(worker: Worker): void {
    const carried = this.carried[worker.slot];
    if (carried === undefined) return;
    carried.cpuMicros += worker.state.usage.cpuMicros;
    carried.decodedSamples += worker.state.usage.decodedSamples;
  }

  private leastLoaded(): Worker {
    const load = (worker: Worker) => worker.state.streams.size + worker.state.opening.size;
    let best: Worker | undefined;
    for (const worker of this.supervisor.workers()) {
      if (best === undefined || load(worker) < load(best)) best = worker;
    }
    if (best === undefined) throw new RecognizerError('recognizer_unavailable', 'no recognizer worker is running');
    return best;
  }

  private receive(worker: Worker, message: FromWorker): void {
    const { streams, opening } = worker.state;
    switch (message.type) {
      case 'ready':
        return;
      case 'usage':
        worker.state.usage.cpuMicros = message.cpuMicros;
        worker.state.usage.decodedSamples = message.decodedSamples;
        return;
      case 'unavailable':
        this.unavailableReason = message.reason;
        this.supervisor.refuse(worker, new RecognizerError('recognizer_unavailable', message.reason));
        return;
      case 'opened':
        opening.get(message.id)?.resolve();
        opening.delete(message.id);
        return;
      case 'failed':
        if (opening.has(message.id)) {
          opening.get(message.id)?.reject(new RecognizerError(message.code, message.message));
          opening.delete(message.id);
          return;
        }
        streams.get(message.id)?.receive(message);
        return;
      case 'partial':
      case 'final':
      case 'decoded':
      case 'ended':
        streams.get(message.id)?.receive(message);
        return;
    }
  }
}

function markFailed(worker: Streams, code: RecognizerErrorCode, why: string): void {
  for (const pending of worker.opening.values()) pending.reject(new RecognizerError(code, why));
  worker.opening.clear();
  for (const stream of [...worker.streams.values()]) stream.fail(code, why);
  worker.streams.clear();
}
