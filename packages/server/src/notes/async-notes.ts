import type { CreateNoteParams, NoteProgress } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';

import type { ProjectScope } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { JobStats } from '../jobs/job-stats.js';
import type { NoteJobRow, NoteOutcomeColumns } from '../store/note-jobs.js';
import type { Repositories } from '../store/repositories.js';
import type { WebhookDeliveryRow } from '../store/webhook-deliveries.js';
import { retryWaitMs, type WebhookDeliveries } from '../webhooks/deliveries.js';
import type { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import { noteProgressFromRow } from './note-records.js';
import type { NoteService } from './note-service.js';

export interface AsyncNotesDeps {
  notes: NoteService;
  repositories: Pick<Repositories, 'notes' | 'noteJobs'>;
  endpoints: WebhookEndpoints;
  deliveries: WebhookDeliveries;
  queue: JobQueue;
  clock: Clock;
  stats: JobStats;
  logger: FastifyBaseLogger;
  config: { readonly maxAttempts: number; readonly retryBaseMs: number };
  /**
   * How long a run may go without finishing before another may take its note over: 0 where the
   * queue itself gives a dead process's job to another (BullMQ), a lease where it does not.
   */
  runLeaseMs: number;
}

/** The code an attempt failed with, for the note's error; never its message, which may quote the visit. */
const codeOf = (error: unknown) => (error instanceof AppError ? error.code : 'internal_error');

/**
 * Asynchronous notes: accepted at once (`queued`), written by a job (`generating`), then `ready` or
 * `failed`, and announced to their webhooks. A job may run more than once (a queue that redelivers,
 * a run taken over): each run claims the note with its own attempt number, and only the run whose
 * attempt is still the note's stores its outcome, with the deliveries that announce it, in one
 * transaction. So however often a job runs, one result is stored and each receiver gets one
 * delivery. Written in the note worker pool, as synchronous notes are; a job's stages (claim, write,
 * store) are where streamed sections would be published.
 */
export class AsyncNotes {
  constructor(private readonly deps: AsyncNotesDeps) {}

  /** POST /api/v1/notes with `async: true`: checks it as a synchronous note, stores it `queued`, queues its job. */
  async submit(scope: ProjectScope, params: CreateNoteParams): Promise<NoteProgress> {
    const callbackUrl = params.callback_url ?? null;
    if (callbackUrl !== null) await this.deps.endpoints.checkCallback(scope, callbackUrl);
    const row = await this.deps.notes.queue(scope, params, callbackUrl);
    try {
      await this.deps.queue.add('note', row.id);
    } catch (error) {
      await this.deps.repositories.notes.delete(row.id);
      throw new AppError('service_unavailable', 'The note queue cannot be reached; send the request again.', {
        cause: error,
      });
    }
    return noteProgressFromRow({ ...row, status: 'queued' });
  }

  /** One run of a note's job. */
  async run(id: string): Promise<void> {
    const { repositories, clock, notes } = this.deps;
    const now = clock.now();
    const row = await repositories.noteJobs.claim(id, now, now - this.deps.runLeaseMs);
    if (row === undefined) return;
    let written;
    try {
      written = await notes.writeQueued(row);
    } catch (error) {
      await this.failedRun(row, error);
      return;
    }
    if (await this.finish(row, written)) {
      notes.countWritten({ projectId: row.project_id, environment: row.environment });
    }
  }

  private async failedRun(row: NoteJobRow, error: unknown): Promise<void> {
    const { repositories, config, logger, queue, stats } = this.deps;
    const code = codeOf(error);
    logger.warn({ noteId: row.id, attempt: row.attempt, code }, 'an asynchronous note run failed');
    if (row.attempt < config.maxAttempts) {
      const delayMs = retryWaitMs(config.retryBaseMs, row.attempt);
      if (!(await repositories.noteJobs.requeue(row.id, row.attempt, this.deps.clock.now() + delayMs))) {
        stats.note('superseded');
        return;
      }
      stats.note('retried');
      await queue.add('note', row.id, { delayMs, run: row.attempt });
      return;
    }
    await this.finish(row, {
      status: 'failed',
      error_code: 'note_generation_failed',
      error_message: `The note could not be written in ${row.attempt} attempts (the last failed with ${code}).`,
    });
  }

  /** Stores the run's outcome with its deliveries, if the note is still this run's, and queues them. */
  private async finish(row: NoteJobRow, outcome: NoteOutcomeColumns): Promise<boolean> {
    const { repositories, deliveries, stats } = this.deps;
    const planned = await deliveries.plan(
      { ...row, ...outcome },
      outcome.status === 'ready' ? 'note.ready' : 'note.failed',
    );
    if (!(await repositories.noteJobs.finish(row.id, row.attempt, outcome, planned))) {
      stats.note('superseded');
      return false;
    }
    stats.note(outcome.status);
    await this.announce(planned);
    return true;
  }

  /** Queues the deliveries; one the queue misses stays due in the database for its recovery. */
  private async announce(planned: readonly WebhookDeliveryRow[]): Promise<void> {
    for (const delivery of planned) {
      await this.deps.queue.add('delivery', delivery.id).catch((error: unknown) => {
        this.deps.logger.warn({ err: error, deliveryId: delivery.id }, 'a delivery could not be queued');
      });
    }
  }
}
