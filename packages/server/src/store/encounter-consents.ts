import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, EncounterConsentsTable } from './schema.js';

export type EncounterConsentRow = Selectable<EncounterConsentsTable>;

export class EncounterConsentsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** Records the consent unless the encounter has one; either way returns the one stored. */
  async recordOnce(row: EncounterConsentRow): Promise<EncounterConsentRow> {
    await this.db
      .insertInto('encounter_consents')
      .values(row)
      .onConflict((conflict) => conflict.column('encounter_id').doNothing())
      .execute();
    return this.db
      .selectFrom('encounter_consents')
      .selectAll()
      .where('encounter_id', '=', row.encounter_id)
      .executeTakeFirstOrThrow();
  }

  async get(encounterId: string): Promise<EncounterConsentRow | undefined> {
    return this.db
      .selectFrom('encounter_consents')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .executeTakeFirst();
  }

  /** Withdraws the consent; false when there was none. */
  async delete(encounterId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('encounter_consents')
      .where('encounter_id', '=', encounterId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
