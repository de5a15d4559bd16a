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
   * session; either way returns the one that is stored, so concurrent relaunches agree. Reopening
   * one marks it used now, so the idle-encounter sweep leaves it alone.
   */
  async openForEmrSession(row: EncounterRow & { emr_session_id: string }): Promise<EncounterRow> {
    await this.db
      .insertInto('encounters')
      .values(row)
      .onConflict((conflict) =>
        conflict
          .columns(['partner_id', 'clinician_id', 'emr_session_id'])
          .where('emr_session_id', 'is not', null)
          .doUpdateSet({ updated_at: row.updated_at }),
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

  /** Whose the encounter is and which patient it is for, whoever asks (the audit log). */
  async auditSubject(
    id: string,
  ): Promise<Pick<EncounterRow, 'id' | 'patient_key' | 'project_id' | 'environment' | 'partner_id'> | undefined> {
    return this.db
      .selectFrom('encounters')
      .select(['id', 'patient_key', 'project_id', 'environment', 'partner_id'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Deletes the encounter now with everything under it: its notes (the generated notes they are
   * too), documents, realtime sessions and their transcripts, consent, patient context and tokens.
   * False when there is none.
   */
  async deleteWithEverything(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // Encounter notes point at the generated notes, not the other way: those go first, by hand.
      await trx
        .deleteFrom('notes')
        .where('id', 'in', trx.selectFrom('encounter_notes').select('id').where('encounter_id', '=', id))
        .execute();
      const result = await trx.deleteFrom('encounters').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Marks the encounter used now, so the idle-encounter sweep leaves it alone. */
  async touch(id: string, at: number): Promise<void> {
    await this.db.updateTable('encounters').set({ updated_at: at }).where('id', '=', id).execute();
  }

  /**
   * Deletes encounters untouched since `cutoff` that hold nothing any more (no note, document or
   * realtime session left after their own retention); returns how many. Their consent and patient
   * context go with them.
   */
  async deleteIdleAndEmpty(cutoff: number): Promise<number> {
    const result = await this.db
      .deleteFrom('encounters')
      .where('updated_at', '<=', cutoff)
      .where((eb) =>
        eb.and([
          eb.not(
            eb.exists(eb.selectFrom('encounter_notes').select('id').whereRef('encounter_id', '=', 'encounters.id')),
          ),
          eb.not(
            eb.exists(eb.selectFrom('encounter_documents').select('id').whereRef('encounter_id', '=', 'encounters.id')),
          ),
          eb.not(
            eb.exists(eb.selectFrom('realtime_sessions').select('id').whereRef('encounter_id', '=', 'encounters.id')),
          ),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Records the patient, the context and the note template it resolves to. Refuses (returns false)
   * when the encounter already belongs to another patient, so nothing recorded for one patient can
   * end up under another.
   */
  async setPatientContext(
    id: string,
    patient: { key: string; id: string; context: string; noteTemplate: string },
    at: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('encounters')
      .set({
        patient_key: patient.key,
        patient_id: patient.id,
        patient_context: patient.context,
        note_template: patient.noteTemplate,
        updated_at: at,
      })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('patient_key', 'is', null), eb('patient_key', '=', patient.key)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
