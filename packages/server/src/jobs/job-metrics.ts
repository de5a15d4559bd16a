import type { Metrics } from '../metrics/metrics.js';
import type { JobQueue } from './job-queue.js';
import type { JobStats } from './job-stats.js';

/**
 * What the asynchronous notes' queue tells operators (docs/operations.md, Metrics): its depth, the
 * same figure on every instance since the queue is shared, and this process's job runs and webhook
 * attempts by outcome. Read at each scrape, so the jobs pay nothing for them.
 */
export function registerJobMetrics(metrics: Metrics, queue: Pick<JobQueue, 'depth'>, stats: JobStats): void {
  metrics.gauge({
    name: 'job_queue_jobs',
    help: 'Jobs of the shared queue by kind (note, delivery) and state: waiting to run, or running.',
    labelNames: ['kind', 'state'],
    read: async (record) => {
      for (const [kind, depth] of Object.entries(await queue.depth())) {
        record(depth.waiting, { kind, state: 'waiting' });
        record(depth.active, { kind, state: 'active' });
      }
    },
  });
  metrics.counter({
    name: 'async_note_runs_total',
    help: 'Asynchronous note job runs in this process by outcome: ready, failed, retried, superseded.',
    labelNames: ['outcome'],
    read: (record) => {
      for (const [outcome, count] of Object.entries(stats.notes)) record(count, { outcome });
    },
  });
  metrics.counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts in this process by outcome: succeeded, failed (for good), retried.',
    labelNames: ['outcome'],
    read: (record) => {
      for (const [outcome, count] of Object.entries(stats.deliveries)) record(count, { outcome });
    },
  });
}
