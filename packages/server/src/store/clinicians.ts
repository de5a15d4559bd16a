import type { Kysely, Selectable } from 'kysely';

import type { CredentialChanges } from './credential-changes.js';
import type { CliniciansTable, DatabaseSchema } from './schema.js';

export type ClinicianRow = Selectable<CliniciansTable>;

export class CliniciansRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly changes: CredentialChanges,
  ) {}

  /**
   * Creates the clinician for (partner, emrUserId) or, when one exists with another e-mail, updates
   * its e-mail (its display name, set in the widget, stays). A clinician the EMR describes as before
   * is only read: every widget token mints through here, and most find their clinician unchanged.
   * The write is one statement, so two token requests racing for a new clinician cannot create two.
   */
  async upsert(row: ClinicianRow): Promise<ClinicianRow> {
    const existing = await this.db
      .selectFrom('clinicians')
      .selectAll()
      .where('partner_id', '=', row.partner_id)
      .where('emr_user_id', '=', row.emr_user_id)
      .executeTakeFirst();
    if (existing?.email === row.email) return existing;
    const saved = await this.db
      .insertInto('clinicians')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['partner_id', 'emr_user_id']).doUpdateSet({ email: row.email, updated_at: row.updated_at }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    // Token minting caches who each clinician is (widget-tokens.ts).
    await this.changes.publish(this.db);
    return saved;
  }

  /** Sets the clinician's display name; returns the clinician as saved. */
  async setDisplayName(id: string, displayName: string, at: number): Promise<ClinicianRow | undefined> {
    return this.db
      .updateTable('clinicians')
      .set({ display_name: displayName, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async get(id: string): Promise<ClinicianRow | undefined> {
    return this.db.selectFrom('clinicians').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
