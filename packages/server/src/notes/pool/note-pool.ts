/**
 * Note generation off the event loop: a few supervised worker processes (worker.ts), started on
 * the first note, each running a bounded number of jobs, with a bounded queue in front that serves
 * tenants (project environments) in turn, and holds at most half its places for any one. A full
 * queue refuses at once (`notes_overloaded`, 503 with Retry-After) rather than letting waits grow
 * without end; a worker that dies fails only the notes it was writing (`note_worker_crashed`) and
 * is replaced.
 */
import { availableParallelism } from 'node:os';

import { compiledModulePath } from '../../compiled-module.js';
import type { NotesConfig } from '../../config/config.js';
import { AppError } from '../../errors.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { EngineLogger } from '../engines/openai/index.js';
import type { GenerationOutcome } from '../generator.js';
import type { NoteJob, NoteWriter } from '../note-service.js';
import { WorkerSupervisor, type SupervisedWorker } from '../../worker-supervisor.js';
import { FairQueue } from './fair-queue.js';
import { NOTE_WORKER_ENV, type FromNoteWorker, type NoteWorkerSettings, type ToNoteWorker } from './messages.js';
import { NotePoolMetrics, type NoteJobOutcome, type NotePoolLoad } from './pool-metrics.js';

export interface NotePoolOptions {
  /** Worker processes. */
  size: number;
  /** Jobs one worker runs at once: 1 for CPU-bound engines, more when jobs mostly wait on a provider. */
  jobsPerWorker: number;
  /** Notes that may wait for a worker; one more is refused with `notes_overloaded`. */
  queueLimit: number;
  settings: NoteWorkerSettings;
  /** Where the engines' log lines go. */
  logger: EngineLogger;
  /** Where its jobs and load are counted. */
  metrics: Metrics;
  workerPath?: string;
}

interface Job {
  id: number;
  tenant: string;
  input: NoteJob;
  resolve: (outcome: GenerationOutcome) => void;
  reject: (error: unknown) => void;
  /** Set once the caller went away: the answer is dropped, the slot stays taken until it comes. */
  abandoned: boolean;
  startedAt: number;
  detach: () => void;
}

/** The notes a worker is writing, by job id. */
type Worker = SupervisedWorker<Map<number, Job>>;

/** The first Retry-After estimates assume a note takes this long, until one was timed. */
const INITIAL_NOTE_MS = 1_000;

/**
 * How far below the service (and its recognizer workers, which run at the service's priority) a
 * note worker runs: +19, which is nice 19 (the lowest) for a service at the default 0. With the
 * recognizer workers busy, a note worker then gets about 1.5% of a core they also want, so notes
 * wait rather than transcripts; on idle cores it runs at full speed.
 */
const NOTE_WORKER_NICENESS = 19;
/** An LLM job mostly waits on its provider: this many share a worker, their CPU parts taking turns. */
const OPENAI_JOBS_PER_WORKER = 8;

/** The pool the configuration asks for: one worker fewer than the cores by default, at least one. */
export function notePoolFor(notes: NotesConfig, logger: EngineLogger, metrics: Metrics): NotePool {
  return new NotePool({
    size: notes.workers === 0 ? Math.max(1, availableParallelism() - 1) : notes.workers,
    jobsPerWorker: notes.engine === 'openai' ? OPENAI_JOBS_PER_WORKER : 1,
    queueLimit: notes.queueLimit,
    settings: { notes, niceness: NOTE_WORKER_NICENESS },
    logger,
    metrics,
  });
}

export function defaultNoteWorkerPath(): string {
  return compiledModulePath(import.meta.url, './worker.js');
}

export class NotePool {
  private readonly supervisor: WorkerSupervisor<Map<number, Job>, FromNoteWorker>;
  private readonly queue = new FairQueue<Job>();
  private nextId = 1;
  private closed = false;
  /** A moving average of how long a note takes in a worker, for Retry-After. */
  private noteMs = INITIAL_NOTE_MS;
  private readonly metrics: NotePoolMetrics;

  constructor(private readonly options: NotePoolOptions) {
    this.metrics = new NotePoolMetrics(options.metrics, () => this.poolLoad());
    this.supervisor = new WorkerSupervisor<Map<number, Job>, FromNoteWorker>({
      size: options.size,
      workerPath: () => options.workerPath ?? defaultNoteWorkerPath(),
      settingsVariable: NOTE_WORKER_ENV,
      settings: options.settings,
      newState: () => new Map(),
      onMessage: (worker, message) => this.receive(worker, message),
      onExit: (worker, how) => this.onExit(worker, how),
      exitedBeforeReady: () => new AppError('note_worker_crashed', 'A note worker exited before it was ready.'),
    });
  }

  /** The pool as the NoteService's writer. */
  readonly write: NoteWriter = (input, options = {}) => this.run(input, options);

  /** Process ids of the live workers (supervision tests, diagnostics). */
  pids(): number[] {
    return this.supervisor.pids();
  }

  /** Notes waiting for a worker, and being written (diagnostics, tests). */
  load(): { waiting: number; writing: number } {
    return { waiting: this.queue.size, writing: this.outstanding() - this.queue.size };
  }

  /** Starts the workers now rather than with the first note, and resolves once each is ready. */
  async warmUp(): Promise<void> {
    this.start();
    await Promise.all(this.supervisor.workers().map((worker) => worker.started));
  }

  async run(input: NoteJob, options: { signal?: AbortSignal; tenant?: string } = {}): Promise<GenerationOutcome> {
    const { signal, tenant = '' } = options;
    if (this.closed) {
      this.metrics.finished('shut_down');
      throw new AppError('service_unavailable', 'The service is shutting down.');
    }
    signal?.throwIfAborted();
    this.start();
    // Counted against every slot, started or not, so the first notes wait for the workers to start.
    if (this.outstanding() >= this.slots() + this.options.queueLimit) {
      throw this.overloaded(`${this.queue.size} notes are waiting to be written`);
    }
    // One tenant posting note after note may take every worker but must leave room in the queue for
    // the others.
    const tenantsOwn = this.outstandingOf(tenant);
    if (tenantsOwn >= this.slots() + Math.max(1, Math.ceil(this.options.queueLimit / 2))) {
      throw this.overloaded(`${tenantsOwn} notes of this project environment are waiting or being written`);
    }
    return new Promise<GenerationOutcome>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        tenant,
        input,
        resolve,
        reject,
        abandoned: false,
        startedAt: 0,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      const onAbort = (): void => this.abandon(job, signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(tenant, job);
      this.pump();
    });
  }

  private overloaded(why: string): AppError {
    this.metrics.finished('refused');
    return new AppError('notes_overloaded', `${why}; retry after the Retry-After header.`, {
      headers: { 'retry-after': String(this.retryAfterSeconds()) },
    });
  }

  /** Refuses what waits, stops the workers (their notes fail `service_unavailable`) and waits for them to exit. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) {
      this.settle(job, 'shut_down', () =>
        job.reject(new AppError('service_unavailable', 'The service is shutting down.')),
      );
    }
    await this.supervisor.close();
  }

  private start(): void {
    if (!this.supervisor.started) this.supervisor.start();
  }

  private idleWorker(): Worker | undefined {
    let best: Worker | undefined;
    for (const worker of this.supervisor.workers()) {
      if (!worker.ready || worker.state.size >= this.options.jobsPerWorker) continue;
      if (best === undefined || worker.state.size < best.state.size) best = worker;
    }
    return best;
  }

  private pump(): void {
    for (let worker = this.idleWorker(); worker !== undefined; worker = this.idleWorker()) {
      const job = this.queue.shift();
      if (job === undefined) return;
      job.startedAt = performance.now();
      worker.state.set(job.id, job);
      this.metrics.started();
      this.send(worker, { type: 'write', id: job.id, input: job.input });
    }
  }

  private send(worker: Worker, message: ToNoteWorker): void {
    if (worker.child.connected) worker.child.send(message);
  }

  private abandon(job: Job, reason: unknown): void {
    if (!this.queue.remove(job)) {
      job.abandoned = true;
      const worker = this.supervisor.workers().find((candidate) => candidate.state.get(job.id) === job);
      if (worker !== undefined) this.send(worker, { type: 'abort', id: job.id });
    }
    this.settle(job, 'abandoned', () => job.reject(reason));
  }

  /** Notes the workers write at once: how many note jobs a process takes at a time. */
  slots(): number {
    return this.options.size * this.options.jobsPerWorker;
  }

  /** Notes waiting or being written. */
  private outstanding(): number {
    return this.queue.size + this.supervisor.workers().reduce((sum, worker) => sum + worker.state.size, 0);
  }

  /** The tenant's notes waiting or being written. */
  private outstandingOf(tenant: string): number {
    let writing = 0;
    for (const worker of this.supervisor.workers()) {
      for (const job of worker.state.values()) if (job.tenant === tenant) writing++;
    }
    return this.queue.sizeOf(tenant) + writing;
  }

  /** Seconds until the notes ahead of a new one are likely written (at least 1). */
  private retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.outstanding() * this.noteMs) / this.slots() / 1000));
  }

  private receive(worker: Worker, message: FromNoteWorker): void {
    switch (message.type) {
      case 'ready':
        this.pump();
        return;
      case 'log':
        this.options.logger[message.level](message.fields, message.message);
        return;
      case 'written':
      case 'failed': {
        const job = worker.state.get(message.id);
        if (job === undefined) return;
        worker.state.delete(message.id);
        const writingMs = performance.now() - job.startedAt;
        this.noteMs = 0.8 * this.noteMs + 0.2 * writingMs;
        if (!job.abandoned) {
          if (message.type === 'written') {
            this.settle(job, 'completed', () => job.resolve(message.outcome), writingMs);
          } else {
            const error = new Error(`the note engine failed (${message.name})`);
            this.settle(job, 'failed', () => job.reject(error), writingMs);
          }
        }
        this.pump();
        return;
      }
    }
  }

  private onExit(worker: Worker, how: string): void {
    for (const job of worker.state.values()) {
      if (job.abandoned) continue;
      const error = this.closed
        ? new AppError('service_unavailable', 'The service is shutting down.')
        : new AppError('note_worker_crashed', `The process writing the note stopped (${how}); retry the request.`);
      this.settle(job, this.closed ? 'shut_down' : 'worker_crashed', () => job.reject(error));
    }
    worker.state.clear();
    if (this.closed) return;
    this.options.logger.warn({ exit: how, pid: worker.child.pid }, 'note worker exited; replacing it');
    if (!worker.ready) {
      // It died before it could write anything: the notes waiting would wait on its replacement,
      // which may die the same way; refuse them now rather than hold them to their timeouts.
      for (const job of this.queue.drain()) {
        this.settle(job, 'worker_crashed', () =>
          job.reject(new AppError('note_worker_crashed', 'The note workers fail to start.')),
        );
      }
    }
  }

  /** Ends a job the one way it ends, counted by how. */
  private settle(job: Job, outcome: NoteJobOutcome, answer: () => void, writingMs?: number): void {
    job.detach();
    this.metrics.finished(outcome, writingMs);
    answer();
  }

  private poolLoad(): NotePoolLoad {
    const workers = this.supervisor.workers();
    const busyWorkers = workers.filter((worker) => worker.state.size > 0).length;
    const { waiting, writing } = this.load();
    return { queued: waiting, writing, busyWorkers, idleWorkers: workers.length - busyWorkers };
  }
}
