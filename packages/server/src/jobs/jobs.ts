import type { FastifyBaseLogger } from 'fastify';

import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { SecretBox } from '../console/secret-box.js';
import type { Metrics } from '../metrics/metrics.js';
import { AsyncNotes } from '../notes/async-notes.js';
import type { NoteService } from '../notes/note-service.js';
import type { NotePool } from '../notes/pool/note-pool.js';
import type { Repositories } from '../store/repositories.js';
import { webhookPolicy } from '../webhooks/address-policy.js';
import { WebhookDeliveries } from '../webhooks/deliveries.js';
import { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import { DatabaseJobQueue } from './database-job-queue.js';
import { registerJobMetrics } from './job-metrics.js';
import type { JobHandlers, JobKind, JobQueue, QueueDepth } from './job-queue.js';
import { JobStats, type DeliveryOutcome, type NoteJobOutcome } from './job-stats.js';
import { RedisJobQueue } from './redis-job-queue.js';

/**
 * A run that has not finished in this long is taken to have died with its process (no note takes
 * it: an LLM engine's timeout is at most 10 minutes), and another process may run the note.
 */
const NOTE_RUN_LEASE_MS = 15 * 60_000;
/** With Redis, how often a working process gives the queue again what the database says is due. */
const RECOVERY_INTERVAL_MS = 60_000;
const RECOVERY_BATCH = 1_000;

/** The SecretBox purpose webhook signing secrets are sealed under. */
const WEBHOOK_SECRETS_PURPOSE = 'webhook secrets';

/** This process's jobs by outcome, since it started. */
export interface JobOutcomes {
  notes: Readonly<Record<NoteJobOutcome, number>>;
  deliveries: Readonly<Record<DeliveryOutcome, number>>;
}

/** What a metrics endpoint reads: the queue's depth, and this process's jobs by outcome. */
export interface JobMetrics extends JobOutcomes {
  depth: Record<JobKind, QueueDepth>;
}

export interface Jobs {
  asyncNotes: AsyncNotes;
  endpoints: WebhookEndpoints;
  deliveries: WebhookDeliveries;
  queue: JobQueue;
  /** Runs note and delivery jobs in this process: the service's (unless NOTE_JOBS_IN_SERVICE=false), a worker's. */
  work(): void;
  outcomes(): JobOutcomes;
  metrics(): Promise<JobMetrics>;
  /** Stops running jobs, waiting up to `graceMs` for those running (JobQueue.close). */
  close(graceMs: number): Promise<void>;
}

export interface JobsDeps {
  repositories: Repositories;
  clock: Clock;
  logger: FastifyBaseLogger;
  notes: NoteService;
  /** The service's sealing secret (services.ts `sealingSecret`): webhook signing secrets are sealed under it. */
  secretKey: string;
  /** Where notes are written: a process runs as many note jobs at once as it has slots, never overflowing it. */
  notePool: Pick<NotePool, 'slots'>;
  /** The service's metrics, which the queue's figures join; a `chartwright worker` has none. */
  metrics?: Metrics;
}

type JobsSettings = Pick<Config, 'redisUrl' | 'jobs'>;

function databaseQueue(config: JobsSettings, { repositories, clock, logger }: JobsDeps): DatabaseJobQueue {
  return new DatabaseJobQueue(
    {
      note: {
        due: async (limit) => {
          const now = clock.now();
          return (await repositories.noteJobs.runnable(now, now - NOTE_RUN_LEASE_MS, limit)).map((row) => row.id);
        },
        depth: async () => {
          const { queued, generating } = await repositories.noteJobs.countByStatus();
          return { waiting: queued, active: generating };
        },
      },
      delivery: {
        due: (limit) => repositories.webhookDeliveries.due(clock.now(), limit),
        depth: async () => {
          const { pending, sending } = await repositories.webhookDeliveries.countUnfinished();
          return { waiting: pending, active: sending };
        },
      },
    },
    { pollMs: config.jobs.pollMs, logger },
  );
}

/** Gives a Redis queue again what the database says is due: jobs it lost, or that were never added. */
async function recover({ repositories, clock }: JobsDeps, queue: JobQueue): Promise<void> {
  const now = clock.now();
  // Every queued note, a retry still in its backoff too (with the rest of its wait): the same run's id
  // queues it once.
  for (const note of await repositories.noteJobs.runnable(
    Number.MAX_SAFE_INTEGER,
    now - NOTE_RUN_LEASE_MS,
    RECOVERY_BATCH,
  )) {
    await queue.add('note', note.id, { run: note.attempt, delayMs: Math.max(0, (note.run_after ?? now) - now) });
  }
  for (const delivery of await repositories.webhookDeliveries.unfinished(RECOVERY_BATCH)) {
    const delayMs = Math.max(0, (delivery.next_attempt_at ?? now) - now);
    await queue.add('delivery', delivery.id, { run: delivery.attempts, delayMs });
  }
}

/** The asynchronous notes' queue and webhooks, on Redis (BullMQ) when configured, else on the database. */
export function createJobs(config: JobsSettings, deps: JobsDeps): Jobs {
  const { repositories, clock, logger } = deps;
  const stats = new JobStats();
  const { webhooks } = config.jobs;
  const policy = webhookPolicy(webhooks.allowedHttpHosts, webhooks.allowedAddresses);
  const box = new SecretBox(deps.secretKey, WEBHOOK_SECRETS_PURPOSE);
  const endpoints = new WebhookEndpoints({ repositories, clock, box, policy });
  const deliveries = new WebhookDeliveries({ repositories, endpoints, clock, policy, config: webhooks, stats });
  const queue: JobQueue =
    config.redisUrl === null
      ? databaseQueue(config, deps)
      : new RedisJobQueue({ url: config.redisUrl, prefix: config.jobs.queuePrefix, logger });
  if (deps.metrics !== undefined) registerJobMetrics(deps.metrics, queue, stats);
  const asyncNotes = new AsyncNotes({
    notes: deps.notes,
    repositories,
    endpoints,
    deliveries,
    queue,
    clock,
    stats,
    logger,
    config: config.jobs.notes,
    runLeaseMs: config.redisUrl === null ? NOTE_RUN_LEASE_MS : 0,
  });
  const handlers: JobHandlers = {
    note: (id) => asyncNotes.run(id),
    delivery: async (id) => {
      const next = await deliveries.deliver(id);
      if (next !== null) await queue.add('delivery', id, { delayMs: next.retryInMs, run: next.attempts });
    },
  };
  let recovery: NodeJS.Timeout | undefined;
  const recoverNow = () =>
    recover(deps, queue).catch((error: unknown) => logger.warn({ err: error }, 'job recovery failed'));
  return {
    asyncNotes,
    endpoints,
    deliveries,
    queue,
    work: () => {
      queue.work(handlers, { note: deps.notePool.slots(), delivery: webhooks.concurrency });
      if (config.redisUrl === null) return;
      void recoverNow();
      recovery = setInterval(() => void recoverNow(), RECOVERY_INTERVAL_MS);
      recovery.unref();
    },
    outcomes: () => ({ notes: { ...stats.notes }, deliveries: { ...stats.deliveries } }),
    metrics: async () => ({
      depth: await queue.depth(),
      notes: { ...stats.notes },
      deliveries: { ...stats.deliveries },
    }),
    close: async (graceMs) => {
      clearInterval(recovery);
      await queue.close(graceMs);
    },
  };
}
