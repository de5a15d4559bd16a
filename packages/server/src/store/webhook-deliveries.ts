import type { Environment } from '@chartwright/protocol';
import type { Kysely, Selectable } from 'kysely';

import type {
  DatabaseSchema,
  WebhookDeliveriesTable,
  WebhookDeliveryAttemptsTable,
  WebhookDeliveryStatus,
} from './schema.js';

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookDeliveryAttemptRow = Selectable<WebhookDeliveryAttemptsTable>;

/** What an attempt leaves: the delivery done (`succeeded`, `failed`) or `pending` until its next attempt. */
export interface AttemptOutcome {
  attempt: WebhookDeliveryAttemptRow;
  status: Exclude<WebhookDeliveryStatus, 'sending'>;
  nextAttemptAt: number | null;
}

export interface DeliveryFilter {
  projectId: string;
  environment: Environment;
  noteId?: string;
  endpointId?: string;
  limit: number;
}

/**
 * Deliveries and their log. A delivery is sent by one sender at a time: the sender claims it with a
 * lease (`sending`), and records its attempt only while it still holds that lease, so two runs of
 * one delivery job never both send, and a delivery that succeeded is never sent again.
 */
export class WebhookDeliveriesRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** Takes the delivery to send it: pending, or sending by a sender whose lease ran out. */
  async claim(id: string, now: number, leaseUntil: number): Promise<WebhookDeliveryRow | undefined> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'sending', lease_until: leaseUntil })
      .where('id', '=', id)
      .where((where) =>
        where.or([
          where('status', '=', 'pending'),
          where.and([where('status', '=', 'sending'), where('lease_until', '<=', now)]),
        ]),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    const row = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    // Another sender may have taken it over between the two statements (our lease lapsed): not ours.
    return row?.lease_until === leaseUntil && row.status === 'sending' ? row : undefined;
  }

  /** Logs the attempt and moves the delivery on, only if the lease is still this sender's. */
  async record(id: string, leaseUntil: number, outcome: AttemptOutcome): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.status,
          attempts: outcome.attempt.number,
          next_attempt_at: outcome.nextAttemptAt,
          lease_until: null,
        })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .where('lease_until', '=', leaseUntil)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.insertInto('webhook_delivery_attempts').values(outcome.attempt).execute();
      return true;
    });
  }

  /** Deliveries to send now: pending and due, or sending under a lease that ran out. */
  async due(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where((where) =>
        where.or([
          where.and([where('status', '=', 'pending'), where('next_attempt_at', '<=', now)]),
          where.and([where('status', '=', 'sending'), where('lease_until', '<=', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Deliveries not finished, with when each is due: what a restarted Redis queue is given again. */
  async unfinished(limit: number): Promise<{ id: string; attempts: number; next_attempt_at: number | null }[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'attempts', 'next_attempt_at'])
      .where('status', 'in', ['pending', 'sending'])
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Newest first, with every attempt (first first). */
  async list(
    filter: DeliveryFilter,
  ): Promise<{ delivery: WebhookDeliveryRow; attempts: WebhookDeliveryAttemptRow[] }[]> {
    let query = this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('project_id', '=', filter.projectId)
      .where('environment', '=', filter.environment);
    if (filter.noteId !== undefined) query = query.where('note_id', '=', filter.noteId);
    if (filter.endpointId !== undefined) query = query.where('endpoint_id', '=', filter.endpointId);
    const deliveries = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    if (deliveries.length === 0) return [];
    const attempts = await this.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        deliveries.map((delivery) => delivery.id),
      )
      .orderBy('number')
      .execute();
    return deliveries.map((delivery) => ({
      delivery,
      attempts: attempts.filter((attempt) => attempt.delivery_id === delivery.id),
    }));
  }

  /** How many deliveries wait for an attempt or are being sent (metrics). */
  async countUnfinished(): Promise<{ pending: number; sending: number }> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', 'in', ['pending', 'sending'])
      .groupBy('status')
      .execute();
    const count = (status: WebhookDeliveryStatus) => rows.find((row) => row.status === status)?.count ?? 0;
    return { pending: count('pending'), sending: count('sending') };
  }
}
