import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, IdempotencyKeysTable } from './schema.js';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

/** One key: whose, for which operation. */
export type IdempotencyKeyId = Pick<IdempotencyKeyRow, 'scope' | 'operation' | 'key'>;

/** A claim on a key by the request about to run. */
export type IdempotencyClaim = Pick<
  IdempotencyKeyRow,
  'request_hash' | 'claim' | 'locked_until' | 'created_at' | 'expires_at'
>;

export interface IdempotentAnswer {
  status: number;
  response: string;
  resourceId: string | null;
}

/**
 * The first answers to Idempotency-Keys. Claiming is one insert that the primary key lets only one
 * request make, on both databases, so concurrent requests with one key never both run.
 */
export class IdempotencyKeysRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** True when this request made the row, and so runs. */
  async claim(id: IdempotencyKeyId, claim: IdempotencyClaim): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_keys')
      .values({ ...id, ...claim, response_status: null, response: null, resource_id: null })
      .onConflict((conflict) => conflict.columns(['scope', 'operation', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async find(id: IdempotencyKeyId): Promise<IdempotencyKeyRow | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where((eb) => eb.and(id))
      .executeTakeFirst();
  }

  /**
   * Claims a key whose record expired, or whose first request's claim lapsed without an answer (its
   * instance stopped). The condition is on the row as it stands, so of two requests taking one key
   * over, only the first changes it.
   */
  async takeOver(id: IdempotencyKeyId, claim: IdempotencyClaim, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ ...claim, response_status: null, response: null, resource_id: null })
      .where((eb) => eb.and(id))
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', now),
          eb.and([eb('response_status', 'is', null), eb('locked_until', '<=', now)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Stores the answer, unless another request took the key over since `claim` was made. */
  async complete(id: IdempotencyKeyId, claim: string, answer: IdempotentAnswer): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ response_status: answer.status, response: answer.response, resource_id: answer.resourceId })
      .where((eb) => eb.and({ ...id, claim }))
      .execute();
  }

  /** Gives the key back, so the next request with it runs (an answer a retry might change). */
  async release(id: IdempotencyKeyId, claim: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where((eb) => eb.and({ ...id, claim }))
      .execute();
  }

  /** Deletes records that expired at or before `now`; returns how many. */
  async deleteExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes the records whose answer made this resource (it is being deleted). */
  async deleteForResource(resourceId: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('resource_id', '=', resourceId).execute();
  }

  /** Deletes the records of an encounter and of the notes and documents made under it. */
  async deleteForEncounter(encounterId: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where((eb) =>
        eb.or([
          eb('resource_id', '=', encounterId),
          eb(
            'resource_id',
            'in',
            eb.selectFrom('encounter_notes').select('id').where('encounter_id', '=', encounterId),
          ),
          eb(
            'resource_id',
            'in',
            eb.selectFrom('encounter_documents').select('id').where('encounter_id', '=', encounterId),
          ),
        ]),
      )
      .execute();
  }
}
