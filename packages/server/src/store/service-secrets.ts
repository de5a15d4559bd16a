import type { Kysely } from 'kysely';

import type { DatabaseSchema } from './schema.js';

export class ServiceSecretsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * The secret stored under `name`, storing `candidate` first if there is none. Instances that race
   * on first start all read back the one that won.
   */
  async getOrCreate(name: string, candidate: string, now: number): Promise<string> {
    await this.db
      .insertInto('service_secrets')
      .values({ name, value: candidate, created_at: now })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('service_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.value;
  }

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  /** Stores `value` under `name`, replacing what was there. */
  async set(name: string, value: string, now: number): Promise<void> {
    await this.db
      .insertInto('service_secrets')
      .values({ name, value, created_at: now })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ value, created_at: now }))
      .execute();
  }

  async delete(name: string): Promise<void> {
    await this.db.deleteFrom('service_secrets').where('name', '=', name).execute();
  }
}
