/** What the note worker pool tells operators (docs/operations.md, Metrics): its jobs and its load. */
import type { Counter, Histogram } from 'prom-client';

import type { Metrics } from '../../metrics/metrics.js';

/**
 * How a note the pool was asked for ended: written, the engine failed, its worker exited, its caller
 * went away, the service shut down, or it was refused at once because the queue was full
 * (`notes_overloaded`).
 */
export const NOTE_JOB_OUTCOMES = [
  'completed',
  'failed',
  'worker_crashed',
  'abandoned',
  'shut_down',
  'refused',
] as const;
export type NoteJobOutcome = (typeof NOTE_JOB_OUTCOMES)[number];

/** The pool's state when scraped. */
export interface NotePoolLoad {
  /** Notes waiting for a worker. */
  queued: number;
  /** Notes being written. */
  writing: number;
  /** Live worker processes writing at least one note, and those writing none. */
  busyWorkers: number;
  idleWorkers: number;
}

/** From a short visit on the extractive engine to a long one through a slow provider. */
const WRITE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class NotePoolMetrics {
  readonly #started: Counter;
  readonly #finished: Counter<'outcome'>;
  readonly #writeSeconds: Histogram;

  constructor(metrics: Metrics, load: () => NotePoolLoad) {
    this.#started = metrics.counter({
      name: 'note_jobs_started_total',
      help: 'Notes a note worker started writing.',
    });
    this.#finished = metrics.counter({
      name: 'note_jobs_finished_total',
      help: 'Notes the pool was asked for, by how they ended (refused: the queue was full).',
      labelNames: ['outcome'],
    });
    for (const outcome of NOTE_JOB_OUTCOMES) this.#finished.inc({ outcome }, 0);
    this.#writeSeconds = metrics.histogram({
      name: 'note_job_duration_seconds',
      help: 'How long a note worker took to write a note (completed or failed), waiting not included.',
      buckets: WRITE_BUCKETS,
    });
    metrics.gauge({
      name: 'note_pool_jobs',
      help: 'Notes in the note worker pool now: queued (waiting for a worker) or writing.',
      labelNames: ['state'],
      read: (record) => {
        const { queued, writing } = load();
        record(queued, { state: 'queued' });
        record(writing, { state: 'writing' });
      },
    });
    metrics.gauge({
      name: 'note_pool_workers',
      help: 'Note worker processes running now: busy (writing a note) or idle.',
      labelNames: ['state'],
      read: (record) => {
        const { busyWorkers, idleWorkers } = load();
        record(busyWorkers, { state: 'busy' });
        record(idleWorkers, { state: 'idle' });
      },
    });
  }

  started(): void {
    this.#started.inc();
  }

  /** `writingMs`: how long its worker took, for a note that was written or failed in one. */
  finished(outcome: NoteJobOutcome, writingMs?: number): void {
    this.#finished.inc({ outcome });
    if (writingMs !== undefined) this.#writeSeconds.observe(writingMs / 1000);
  }
}
