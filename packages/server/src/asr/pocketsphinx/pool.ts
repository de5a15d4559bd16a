/**
 * Supervises the decoder worker processes. Each stream is pinned to the least-loaded worker; when
 * a worker dies (a native fault kills only its process) every stream it carried gets
 * `recognizer_crashed` and the worker is restarted, while other workers' streams carry on.
 */
import { WorkerSupervisor, type SupervisedWorker } from '../../worker-supervisor.js';
import { RecognizerError, type RecognizerErrorCode } from '../recognizer.js';
import { SETTINGS_ENV, type FromWorker, type ToWorker, type WorkerSettings } from './messages.js';
import { PocketSphinxStream } from './stream.js';

export interface PoolOptions {
  size: number;
  workerPath: string;
  settings: WorkerSettings;
  maxPendingSamples: number;
}

/** The streams a worker carries, and those it is opening. */
interface Streams {
  streams: Map<number, PocketSphinxStream>;
  opening: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
}

type Worker = SupervisedWorker<Streams>;

export class WorkerPool {
  private readonly supervisor: WorkerSupervisor<Streams, FromWorker>;
  private nextId = 1;
  /** Set when a worker reports that the library or model cannot load: restarting would not help. */
  unavailableReason: string | undefined;

  constructor(private readonly options: PoolOptions) {
    this.supervisor = new WorkerSupervisor<Streams, FromWorker>({
      size: options.size,
      workerPath: () => options.workerPath,
      settingsVariable: SETTINGS_ENV,
      settings: options.settings,
      newState: () => ({ streams: new Map(), opening: new Map() }),
      onMessage: (worker, message) => this.receive(worker, message),
      onExit: (worker, how) =>
        this.supervisor.closed
          ? markFailed(worker.state, 'recognizer_unavailable', 'the recognizer was closed')
          : markFailed(worker.state, 'recognizer_crashed', `the recognizer process exited (${how}); reopen the stream`),
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
