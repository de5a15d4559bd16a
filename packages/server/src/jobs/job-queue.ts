/**
 * The queue asynchronous notes and webhook deliveries run on: BullMQ on Redis when REDIS_URL is set
 * (jobs shared by every process on it: the service and `chartwright worker`s), else a queue of our
 * own in the database (redis-job-queue.ts, database-job-queue.ts). Either may run a job more than
 * once; the handlers make that harmless (notes/async-notes.ts, webhooks/deliveries.ts). A job
 * carries only an id: what it works on, patient data included, stays in the database.
 */
export const JOB_KINDS = ['note', 'delivery'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export type JobHandler = (id: string) => Promise<void>;
export type JobHandlers = Readonly<Record<JobKind, JobHandler>>;

export interface AddOptions {
  /** Run it no sooner than this (a retry's backoff). */
  delayMs?: number;
  /** Which run of the job this is (a retry is a new run): runs of one job with one number are one job. */
  run?: number;
}

/** Jobs of a kind waiting (delayed ones included) and running, across every process of the queue. */
export interface QueueDepth {
  waiting: number;
  active: number;
}

export interface JobQueue {
  add(kind: JobKind, id: string, options?: AddOptions): Promise<void>;
  /** Starts running jobs in this process, each kind at most `concurrency[kind]` at once. */
  work(handlers: JobHandlers, concurrency: Readonly<Record<JobKind, number>>): void;
  depth(): Promise<Record<JobKind, QueueDepth>>;
  /**
   * Stops taking jobs and waits up to `graceMs` for the running ones; past it, stops without them
   * (a run cut short is run again: BullMQ's stalled jobs, the database queue's lease).
   */
  close(graceMs: number): Promise<void>;
}
