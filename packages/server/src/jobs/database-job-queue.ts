import type { FastifyBaseLogger } from 'fastify';

import {
  JOB_KINDS,
  type AddOptions,
  type JobHandlers,
  type JobKind,
  type JobQueue,
  type QueueDepth,
} from './job-queue.js';
import { within } from './within.js';

/** Where the database keeps a kind of job: the rows due now, and how many wait and run. */
export interface DueJobs {
  due(limit: number): Promise<string[]>;
  depth(): Promise<QueueDepth>;
}

/**
 * The queue without Redis: the database is the queue. A note is a job while it is `queued` (or its
 * run's lease lapsed), a delivery while it is due; each process that works polls for them, so jobs
 * survive a restart (picked up at the first poll) and several processes on one database share them,
 * their handlers claiming each job before running it. `add` only wakes the poll now, or after a
 * backoff: what runs is always what the database says is due (a retry's backoff is stored with it).
 */
export class DatabaseJobQueue implements JobQueue {
  private handlers: JobHandlers | null = null;
  private concurrency: Readonly<Record<JobKind, number>> = { note: 0, delivery: 0 };
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private interval: NodeJS.Timeout | undefined;
  private polling: Promise<void> | null = null;
  /** Wakes so far: one during a poll means another look once it is done. */
  private wakes = 0;
  private closed = false;

  constructor(
    private readonly sources: Readonly<Record<JobKind, DueJobs>>,
    private readonly options: { pollMs: number; logger: FastifyBaseLogger },
  ) {}

  /** The job is in the database already, due now or after its delay: look for it then. */
  add(_kind: JobKind, _id: string, options: AddOptions = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.wake();
      }, delayMs);
      timer.unref();
      this.timers.add(timer);
    } else {
      this.wake();
    }
    return Promise.resolve();
  }

  work(handlers: JobHandlers, concurrency: Readonly<Record<JobKind, number>>): void {
    this.handlers = handlers;
    this.concurrency = concurrency;
    this.interval = setInterval(() => this.wake(), this.options.pollMs);
    this.interval.unref();
    this.wake();
  }

  async depth(): Promise<Record<JobKind, QueueDepth>> {
    return { note: await this.sources.note.depth(), delivery: await this.sources.delivery.depth() };
  }

  async close(graceMs: number): Promise<void> {
    this.closed = true;
    clearInterval(this.interval);
    for (const timer of this.timers) clearTimeout(timer);
    // Past the grace the runs are left to end as they will; another process takes over their notes.
    await within(Promise.all([this.polling, ...this.running.values()]), graceMs, 'finishing the running jobs').catch(
      () => undefined,
    );
  }

  private wake(): void {
    if (this.handlers === null || this.closed) return;
    this.wakes += 1;
    if (this.polling !== null) return;
    this.polling = this.poll()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'the job queue could not read the database'))
      .finally(() => {
        this.polling = null;
      });
  }

  private async poll(): Promise<void> {
    let seen: number;
    do {
      seen = this.wakes;
      for (const kind of JOB_KINDS) await this.startDue(kind);
    } while (this.wakes !== seen && !this.closed);
  }

  private async startDue(kind: JobKind): Promise<void> {
    const handler = this.handlers?.[kind];
    const runningOfKind = [...this.running.keys()].filter((key) => key.startsWith(`${kind}:`)).length;
    let free = this.concurrency[kind] - runningOfKind;
    if (handler === undefined || free <= 0) return;
    // Rows this process runs come back too: ask for enough to fill the free slots.
    const ids = await this.sources[kind].due(free + runningOfKind);
    for (const id of ids) {
      const key = jobKey(kind, id);
      if (free <= 0 || this.closed) return;
      if (this.running.has(key)) continue;
      free -= 1;
      this.running.set(
        key,
        handler(id)
          .catch((error: unknown) => this.options.logger.error({ err: error, job: kind, id }, 'a job failed'))
          .finally(() => {
            this.running.delete(key);
            this.wake();
          }),
      );
    }
  }
}

const jobKey = (kind: JobKind, id: string) => `${kind}:${id}`;
