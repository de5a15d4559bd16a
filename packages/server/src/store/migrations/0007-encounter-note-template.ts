import type { StoredPatientContext } from '@chartwright/protocol';
import { sql, type Kysely, type Migration } from 'kysely';

import { resolveEncounterTemplate, storedEncounterTemplate } from '../../encounters/encounter-template.js';

const BATCH = 500;

/**
 * Encounters keep the note template their patient context resolved to, so notes, host keys and the
 * encounter's state read the one resolved when the context was set. Encounters that already have a
 * patient context get theirs now, through the same resolution the service used to repeat on every
 * read, so nothing they return changes.
 */
export const encounterNoteTemplate: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('encounters').addColumn('note_template', 'text').execute();
    // In batches, so a large table is never read into memory at once.
    for (;;) {
      const { rows } = await sql<{ id: string; patient_context: string }>`
        select id, patient_context from encounters
        where patient_context is not null and note_template is null
        order by id limit ${BATCH}`.execute(db);
      for (const row of rows) {
        const context = JSON.parse(row.patient_context) as StoredPatientContext;
        const template = storedEncounterTemplate(resolveEncounterTemplate(context));
        await sql`update encounters set note_template = ${template} where id = ${row.id}`.execute(db);
      }
      if (rows.length < BATCH) return;
    }
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('encounters').dropColumn('note_template').execute();
  },
};
