import type { Kysely, Selectable } from 'kysely';

import type { NoteStatus } from '@chartwright/protocol';

import type { DatabaseSchema, NotesTable, WebhookDeliveriesTable } from './schema.js';

export type NoteJobRow = Selectable<NotesTable>;

/** What a finished run writes: the note (`ready`) or why it failed (`failed`). */
export type NoteOutcomeColumns = Partial<Omit<NoteJobRow, 'id' | 'attempt' | 'status'>> & {
  status: 'ready' | 'failed';
};

/**
 * The queue's side of the notes table. Runs of a note's job may overlap (a queue that runs a job
 * twice, a run taken over after its lease): each run claims the note by raising `attempt`, and only
 * the run whose attempt is still the note's may store a result, so however many runs there are,
 * one result is stored and one set of deliveries planned.
 */
export class NoteJobsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * Takes the note for a new run: it must be `queued`, or `generating` by a run that started at or
   * before `staleBefore`. Returns the note with the run's attempt, or undefined when it is not to run.
   */
  async claim(id: string, now: number, staleBefore: number): Promise<NoteJobRow | undefined> {
    const current = await this.db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirst();
    if (current === undefined) return undefined;
    const runnable =
      current.status === 'queued' ||
      (current.status === 'generating' && current.started_at !== null && current.started_at <= staleBefore);
    if (!runnable) return undefined;
    const claimed = { status: 'generating' as const, attempt: current.attempt + 1, started_at: now, run_after: null };
    const result = await this.db
      .updateTable('notes')
      .set(claimed)
      .where('id', '=', id)
      .where('attempt', '=', current.attempt)
      .where('status', '=', current.status)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? { ...current, ...claimed } : undefined;
  }

  /**
   * Stores the run's outcome and the deliveries that announce it, together, only if the note is
   * still this run's; false when another run got there first (nothing is written).
   */
  async finish(
    id: string,
    attempt: number,
    outcome: NoteOutcomeColumns,
    deliveries: readonly Selectable<WebhookDeliveriesTable>[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('notes')
        .set({ ...outcome, request: null, started_at: null })
        .where('id', '=', id)
        .where('status', '=', 'generating')
        .where('attempt', '=', attempt)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      if (deliveries.length > 0)
        await trx
          .insertInto('webhook_deliveries')
          .values([...deliveries])
          .execute();
      return true;
    });
  }

  /** Gives the note back to the queue after a failed run, to run after `runAfter`, if it is still this run's. */
  async requeue(id: string, attempt: number, runAfter: number): Promise<boolean> {
    const result = await this.db
      .updateTable('notes')
      .set({ status: 'queued', started_at: null, run_after: runAfter })
      .where('id', '=', id)
      .where('status', '=', 'generating')
      .where('attempt', '=', attempt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Notes waiting for a run (due by `now`, past a retry's backoff), and notes whose run started at or
   * before `staleBefore` (its process stopped).
   */
  async runnable(
    now: number,
    staleBefore: number,
    limit: number,
  ): Promise<{ id: string; attempt: number; run_after: number | null }[]> {
    return this.db
      .selectFrom('notes')
      .select(['id', 'attempt', 'run_after'])
      .where((where) =>
        where.or([
          where.and([
            where('status', '=', 'queued'),
            where.or([where('run_after', 'is', null), where('run_after', '<=', now)]),
          ]),
          where.and([where('status', '=', 'generating'), where('started_at', '<=', staleBefore)]),
        ]),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** How many notes are in each status the queue holds (metrics). */
  async countByStatus(): Promise<Record<Extract<NoteStatus, 'queued' | 'generating'>, number>> {
    const rows = await this.db
      .selectFrom('notes')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', 'in', ['queued', 'generating'])
      .groupBy('status')
      .execute();
    const count = (status: NoteStatus) => rows.find((row) => row.status === status)?.count ?? 0;
    return { queued: count('queued'), generating: count('generating') };
  }
}
