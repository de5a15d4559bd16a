import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, EncounterNotesTable, NotesTable } from './schema.js';

export type EncounterNoteRow = Selectable<EncounterNotesTable>;

/** An encounter note with what its generated note says about how it was written. */
export type EncounterNoteRecord = EncounterNoteRow &
  Pick<
    Selectable<NotesTable>,
    | 'template_id'
    | 'template_version'
    | 'engine_name'
    | 'engine_version'
    | 'fallback'
    | 'style'
    | 'flags'
    | 'omissions'
    | 'warnings'
    | 'verification'
  >;

export class EncounterNotesRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: EncounterNoteRow): Promise<void> {
    await this.db.insertInto('encounter_notes').values(row).execute();
  }

  private records() {
    return this.db
      .selectFrom('encounter_notes')
      .innerJoin('notes', 'notes.id', 'encounter_notes.id')
      .selectAll('encounter_notes')
      .select([
        'notes.template_id',
        'notes.template_version',
        'notes.engine_name',
        'notes.engine_version',
        'notes.fallback',
        'notes.style',
        'notes.flags',
        'notes.omissions',
        'notes.warnings',
        'notes.verification',
      ]);
  }

  /** The note, only if it belongs to the encounter and is still retained. */
  async get(encounterId: string, id: string, now: number): Promise<EncounterNoteRecord | undefined> {
    return this.records()
      .where('encounter_notes.id', '=', id)
      .where('encounter_notes.encounter_id', '=', encounterId)
      .where('encounter_notes.expires_at', '>', now)
      .executeTakeFirst();
  }

  /** The encounter's retained notes, latest first. */
  async list(encounterId: string, now: number): Promise<EncounterNoteRecord[]> {
    return this.records()
      .where('encounter_notes.encounter_id', '=', encounterId)
      .where('encounter_notes.expires_at', '>', now)
      .orderBy('encounter_notes.created_at', 'desc')
      .orderBy('encounter_notes.id', 'desc')
      .execute();
  }

  /**
   * Saves edited sections as the next revision, only if the note is still at `fromRevision`; returns
   * false when another edit got there first.
   */
  async saveRevision(
    id: string,
    fromRevision: number,
    edit: { sections: string; noteText: string; at: number },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('encounter_notes')
      .set({ sections: edit.sections, note_text: edit.noteText, revision: fromRevision + 1, updated_at: edit.at })
      .where('id', '=', id)
      .where('revision', '=', fromRevision)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The encounter a note was written for, if it was written for one. */
  async encounterIdOf(id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('encounter_notes')
      .select('encounter_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.encounter_id;
  }

  /** Deletes the note (and the generated note it is) now; false when the encounter has no such note. */
  async delete(encounterId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('notes')
      .where('id', '=', id)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('encounter_notes')
            .select('encounter_notes.id')
            .where('encounter_notes.id', '=', id)
            .where('encounter_notes.encounter_id', '=', encounterId),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
