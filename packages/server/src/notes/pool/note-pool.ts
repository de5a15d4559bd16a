/**
 * Note generation off the event loop: a few supervised worker processes (worker.ts), started on
 * the first note, each running a bounded number of jobs, with a bounded FIFO queue in front. A full
 * queue refuses at once (`notes_overloaded`, 503 with Retry-After) rather than letting waits grow
 * without end; a worker that dies fails only the notes it was writing (`note_worker_crashed`) and
 * is replaced.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

import { compiledModulePath } from '../../compiled-module.js';
import type { NotesConfig } from '../../config/config.js';
import { AppError } from '../../errors.js';
import type { EngineLogger } from '../engines/openai/index.js';
import type { GenerationOutcome } from '../generator.js';
import type { NoteJob, NoteWriter } from '../note-service.js';
import { NOTE_WORKER_ENV, type FromNoteWorker, type NoteWorkerSettings, type ToNoteWorker } from './messages.js';

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
  workerPath?: string;
}

interface Job {
  id: number;
  input: NoteJob;
  resolve: (outcome: GenerationOutcome) => void;
  reject: (error: unknown) => void;
  /** Set once the caller went away: the answer is dropped, the slot stays taken until it comes. */
  abandoned: boolean;
  startedAt: number;
  detach: () => void;
}

interface Worker {
  child: ChildProcess;
  startedAt: number;
  ready: boolean;
  /** Settles when the worker is ready, or rejects when it exits before. */
  started: Promise<void>;
  jobs: Map<number, Job>;
}

const MAX_RESTART_DELAY_MS = 5_000;
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
export function notePoolFor(notes: NotesConfig, logger: EngineLogger): NotePool {
  return new NotePool({
    size: notes.workers === 0 ? Math.max(1, availableParallelism() - 1) : notes.workers,
    jobsPerWorker: notes.engine === 'openai' ? OPENAI_JOBS_PER_WORKER : 1,
    queueLimit: notes.queueLimit,
    settings: { notes, niceness: NOTE_WORKER_NICENESS },
    logger,
  });
}

export function defaultNoteWorkerPath(): string {
  return compiledModulePath(import.meta.url, './worker.js');
}

export class NotePool {
  private readonly workers: (Worker | undefined)[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private started = false;
  private closed = false;
  private failedStarts = 0;
  /** A moving average of how long a note takes in a worker, for Retry-After. */
  private noteMs = INITIAL_NOTE_MS;

  constructor(private readonly options: NotePoolOptions) {
    this.workers = Array.from({ length: options.size }, () => undefined);
  }

  /** The pool as the NoteService's writer. */
  readonly write: NoteWriter = (input, options = {}) => this.run(input, options.signal);

  /** Process ids of the live workers (supervision tests, diagnostics). */
  pids(): number[] {
    return this.workers.flatMap((worker) => (worker?.child.pid === undefined ? [] : [worker.child.pid]));
  }

  /** Notes waiting for a worker, and being written (diagnostics, tests). */
  load(): { waiting: number; writing: number } {
    return { waiting: this.queue.length, writing: this.outstanding() - this.queue.length };
  }

  /** Starts the workers now rather than with the first note, and resolves once each is ready. */
  async warmUp(): Promise<void> {
    this.start();
    await Promise.all(this.workers.flatMap((worker) => (worker === undefined ? [] : [worker.started])));
  }

  async run(input: NoteJob, signal?: AbortSignal): Promise<GenerationOutcome> {
    if (this.closed) throw new AppError('service_unavailable', 'The service is shutting down.');
    signal?.throwIfAborted();
    this.start();
    // Counted against every slot, started or not, so the first notes wait for the workers to start.
    if (this.outstanding() >= this.slots() + this.options.queueLimit) {
      throw new AppError(
        'notes_overloaded',
        `${this.queue.length} notes are waiting to be written; retry after the Retry-After header.`,
        { headers: { 'retry-after': String(this.retryAfterSeconds()) } },
      );
    }
    return new Promise<GenerationOutcome>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        input,
        resolve,
        reject,
        abandoned: false,
        startedAt: 0,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      const onAbort = (): void => this.abandon(job, signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Refuses what waits, stops the workers (their notes fail `service_unavailable`) and waits for them to exit. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      settle(job, () => job.reject(new AppError('service_unavailable', 'The service is shutting down.')));
    }
    await Promise.all(
      this.workers.map(async (worker) => {
        if (worker?.child.exitCode !== null || worker.child.signalCode !== null) return;
        const exited = new Promise((resolve) => worker.child.once('exit', resolve));
        worker.child.kill('SIGTERM');
        await exited;
      }),
    );
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    for (let slot = 0; slot < this.workers.length; slot++) this.workers[slot] = this.spawn(slot);
  }

  private idleWorker(): Worker | undefined {
    let best: Worker | undefined;
    for (const worker of this.workers) {
      if (worker === undefined || !worker.ready || worker.jobs.size >= this.options.jobsPerWorker) continue;
      if (best === undefined || worker.jobs.size < best.jobs.size) best = worker;
    }
    return best;
  }

  private pump(): void {
    for (let worker = this.idleWorker(); worker !== undefined; worker = this.idleWorker()) {
      const job = this.queue.shift();
      if (job === undefined) return;
      job.startedAt = performance.now();
      worker.jobs.set(job.id, job);
      this.send(worker, { type: 'write', id: job.id, input: job.input });
    }
  }

  private send(worker: Worker, message: ToNoteWorker): void {
    if (worker.child.connected) worker.child.send(message);
  }

  private abandon(job: Job, reason: unknown): void {
    const queued = this.queue.indexOf(job);
    if (queued !== -1) this.queue.splice(queued, 1);
    else {
      job.abandoned = true;
      const worker = this.workers.find((candidate) => candidate?.jobs.get(job.id) === job);
      if (worker !== undefined) this.send(worker, { type: 'abort', id: job.id });
    }
    settle(job, () => job.reject(reason));
  }

  private slots(): number {
    return this.options.size * this.options.jobsPerWorker;
  }

  /** Notes waiting or being written. */
  private outstanding(): number {
    return this.queue.length + this.workers.reduce((sum, worker) => sum + (worker?.jobs.size ?? 0), 0);
  }

  /** Seconds until the notes ahead of a new one are likely written (at least 1). */
  private retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.outstanding() * this.noteMs) / this.slots() / 1000));
  }

  private spawn(slot: number): Worker {
    const child = fork(this.options.workerPath ?? defaultNoteWorkerPath(), [], {
      serialization: 'advanced',
      env: { ...process.env, [NOTE_WORKER_ENV]: JSON.stringify(this.options.settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let markStarted!: () => void;
    let markFailed!: (error: Error) => void;
    const started = new Promise<void>((resolve, reject) => {
      markStarted = resolve;
      markFailed = reject;
    });
    // Nobody need wait for a worker's start: its failure must not be an unhandled rejection.
    started.catch(() => undefined);
    const worker: Worker = { child, startedAt: Date.now(), ready: false, started, jobs: new Map() };
    child.on('message', (message: FromNoteWorker) => {
      if (message.type === 'ready') markStarted();
      this.receive(worker, message);
    });
    child.on('error', () => {
      // Spawn or IPC failure: 'exit' follows and does the cleanup.
    });
    child.once('exit', (code, signal) => {
      markFailed(new AppError('note_worker_crashed', 'A note worker exited before it was ready.'));
      this.onExit(slot, worker, code, signal);
    });
    return worker;
  }

  private receive(worker: Worker, message: FromNoteWorker): void {
    switch (message.type) {
      case 'ready':
        worker.ready = true;
        this.failedStarts = 0;
        this.pump();
        return;
      case 'log':
        this.options.logger[message.level](message.fields, message.message);
        return;
      case 'written':
      case 'failed': {
        const job = worker.jobs.get(message.id);
        if (job === undefined) return;
        worker.jobs.delete(message.id);
        this.noteMs = 0.8 * this.noteMs + 0.2 * (performance.now() - job.startedAt);
        if (!job.abandoned) {
          if (message.type === 'written') settle(job, () => job.resolve(message.outcome));
          else settle(job, () => job.reject(new Error(`the note engine failed (${message.name})`)));
        }
        this.pump();
        return;
      }
    }
  }

  private onExit(slot: number, worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ?? `code ${code ?? 'unknown'}`;
    for (const job of worker.jobs.values()) {
      if (job.abandoned) continue;
      const error = this.closed
        ? new AppError('service_unavailable', 'The service is shutting down.')
        : new AppError('note_worker_crashed', `The process writing the note stopped (${how}); retry the request.`);
      settle(job, () => job.reject(error));
    }
    worker.jobs.clear();
    if (this.workers[slot] === worker) this.workers[slot] = undefined;
    if (this.closed) return;
    this.options.logger.warn({ exit: how, slot }, 'note worker exited; replacing it');
    if (!worker.ready) {
      // It died before it could write anything: the notes waiting would wait on its replacement,
      // which may die the same way; refuse them now rather than hold them to their timeouts.
      for (const job of this.queue.splice(0)) {
        settle(job, () => job.reject(new AppError('note_worker_crashed', 'The note workers fail to start.')));
      }
    }
    // A worker that dies right after starting is likely to again: back off rather than spin.
    if (Date.now() - worker.startedAt < 1_000) this.failedStarts++;
    const delay = this.failedStarts === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** this.failedStarts);
    setTimeout(() => {
      if (!this.closed && this.workers[slot] === undefined) this.workers[slot] = this.spawn(slot);
    }, delay).unref();
  }
}

function settle(job: Job, outcome: () => void): void {
  job.detach();
  outcome();
}
