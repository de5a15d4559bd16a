import { Queue, Worker, type ConnectionOptions } from 'bullmq';
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

export interface RedisJobQueueOptions {
  url: string;
  /** Prefix of every key BullMQ makes. */
  prefix: string;
  logger: FastifyBaseLogger;
}

/** One BullMQ queue per kind, so each kind's workers run at their own concurrency. */
const QUEUE_NAMES: Readonly<Record<JobKind, string>> = { note: 'notes', delivery: 'webhook-deliveries' };

/**
 * A job that threw (the database unreachable, not a note that failed: handlers settle those
 * themselves) is run again this many times, waiting 1 s, 2 s, 4 s…
 */
const UNEXPECTED_FAILURE_ATTEMPTS = 5;
const UNEXPECTED_FAILURE_DELAY_MS = 1_000;
/** Failed jobs kept for inspection (redis-cli, Bull Board), the oldest dropped first. */
const FAILED_JOBS_KEPT = 1_000;
/**
 * How long adding a job may take. A Redis that cannot be reached holds commands until it comes
 * back; a note request must not: it is refused (and the note not stored) so its caller retries.
 */
const ADD_TIMEOUT_MS = 5_000;
/** How long Redis may take to answer a ping before it is taken for unreachable (closing). */
const PING_TIMEOUT_MS = 1_000;

/**
 * The queue on Redis (BullMQ): jobs are shared by every process connected to it, so `chartwright
 * worker` processes on other machines take notes the service queued. A job id names the run
 * (`note-<id>-<run>`), so adding the same run twice (the service, and a worker's recovery scan)
 * queues it once. BullMQ gives a job whose process died to another worker (a stalled job): the run
 * may then happen twice, which the handlers make harmless.
 */
export class RedisJobQueue implements JobQueue {
  private readonly queues: Record<JobKind, Queue>;
  private readonly workers: Worker[] = [];

  constructor(private readonly options: RedisJobQueueOptions) {
    const connection = this.connection();
    const make = (kind: JobKind) => new Queue(QUEUE_NAMES[kind], { connection, prefix: options.prefix });
    this.queues = { note: make('note'), delivery: make('delivery') };
    for (const queue of Object.values(this.queues)) queue.on('error', (error) => this.connectionError(error));
  }

  async add(kind: JobKind, id: string, options: AddOptions = {}): Promise<void> {
    const adding = this.queues[kind].add(
      kind,
      { id },
      {
        jobId: `${kind}-${id}-${options.run ?? 0}`,
        delay: options.delayMs ?? 0,
        attempts: UNEXPECTED_FAILURE_ATTEMPTS,
        backoff: { type: 'exponential', delay: UNEXPECTED_FAILURE_DELAY_MS },
        removeOnComplete: true,
        removeOnFail: FAILED_JOBS_KEPT,
      },
    );
    // Settled later (Redis back), it is the same job a recovery scan would add: nothing to undo.
    adding.catch(() => undefined);
    await within(adding, ADD_TIMEOUT_MS, 'adding a job to the Redis queue');
  }

  work(handlers: JobHandlers, concurrency: Readonly<Record<JobKind, number>>): void {
    for (const kind of JOB_KINDS) {
      const worker = new Worker<{ id: string }>(QUEUE_NAMES[kind], (job) => handlers[kind](job.data.id), {
        connection: this.connection(),
        prefix: this.options.prefix,
        concurrency: concurrency[kind],
      });
      worker.on('error', (error) => this.connectionError(error));
      worker.on('failed', (job, error) => {
        this.options.logger.warn({ job: kind, id: job?.data.id, err: { message: error.message } }, 'a job failed');
      });
      this.workers.push(worker);
    }
  }

  async depth(): Promise<Record<JobKind, QueueDepth>> {
    const depthOf = async (kind: JobKind): Promise<QueueDepth> => {
      const counts = await this.queues[kind].getJobCounts('waiting', 'delayed', 'prioritized', 'active');
      return {
        waiting: (counts['waiting'] ?? 0) + (counts['delayed'] ?? 0) + (counts['prioritized'] ?? 0),
        active: counts['active'] ?? 0,
      };
    };
    return { note: await depthOf('note'), delivery: await depthOf('delivery') };
  }

  async close(graceMs: number): Promise<void> {
    // A worker waits for its running jobs when closed, but never stops waiting for a Redis it cannot
    // reach: then it is closed at once (BullMQ gives its cut jobs to another worker later).
    const reachable = await within(this.queues.note.getJobCounts('active'), PING_TIMEOUT_MS, 'asking Redis')
      .then(() => true)
      .catch(() => false);
    const closing = Promise.all(this.workers.map((worker) => worker.close(!reachable)));
    // Past the grace, go on: the runs still going end when the note pool closes after this.
    await within(closing, graceMs, 'finishing the running jobs').catch(() => undefined);
    await Promise.all(Object.values(this.queues).map((queue) => queue.close()));
  }

  private connection(): ConnectionOptions {
    return { url: this.options.url };
  }

  private connectionError(error: Error): void {
    this.options.logger.warn({ err: { message: error.message } }, 'job queue: redis connection error');
  }
}
