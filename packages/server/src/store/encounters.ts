import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, EncountersTable } from './schema.js';

export type EncounterRow = Selectable<EncountersTable>;

export class EncountersRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: EncounterRow): Promise<void> {
    await this.db.insertInto('encounters').values(row).execute();
  }

  /**
   * Inserts the encounter unless this clinician of this partner already has one for the EMR
   * session; either way returns the one that is stored, so concurrent relaunches agree.
   */
  async openForEmrSession(row: EncounterRow & { emr_session_id: string }): Promise<EncounterRow> {
    await this.db
      .insertInto('encounters')
      .values(row)
      .onConflict((conflict) =>
        conflict
          .columns(['partner_id', 'clinician_id', 'emr_session_id'])
          .where('emr_session_id', 'is not', null)
          .doNothing(),
      )
      .execute();
    return this.db
      .selectFrom('encounters')
      .selectAll()
      .where('partner_id', '=', row.partner_id)
      .where('clinician_id', '=', row.clinician_id)
      .where('emr_session_id', '=', row.emr_session_id)
      .executeTakeFirstOrThrow();
  }

  /** The encounter, only if it belongs to this clinician of this partner. */
  async getOwned(id: string, owner: { partnerId: string; clinicianId: string }): Promise<EncounterRow | undefined> {
    return this.db
      .selectFrom('encounters')
      .selectAll()
      .where('id', '=', id)
      .where('partner_id', '=', owner.partnerId)
      .where('clinician_id', '=', owner.clinicianId)
      .executeTakeFirst();
  }

  /**
   * Records the patient and context. Refuses (returns false) when the encounter already belongs to
   * another patient, so nothing recorded for one patient can end up under another.
   */
  async setPatientContext(
    id: string,
    patient: { key: string; id: string; context: string },
    at: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('encounters')
      .set({ patient_key: patient.key, patient_id: patient.id, patient_context: patient.context, updated_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('patient_key', 'is', null), eb('patient_key', '=', patient.key)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
