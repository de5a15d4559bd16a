import type { Kysely, Selectable } from 'kysely';

import type { CliniciansTable, DatabaseSchema } from './schema.js';

export type ClinicianRow = Selectable<CliniciansTable>;

export class CliniciansRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * Creates the clinician for (partner, emrUserId) or, when one exists, updates its e-mail; one
   * statement, so two token requests racing for a new clinician cannot create two.
   */
  async upsert(row: ClinicianRow): Promise<ClinicianRow> {
    return this.db
      .insertInto('clinicians')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['partner_id', 'emr_user_id']).doUpdateSet({ email: row.email, updated_at: row.updated_at }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async get(id: string): Promise<ClinicianRow | undefined> {
    return this.db.selectFrom('clinicians').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
