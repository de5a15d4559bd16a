import { sql, type Kysely, type Migration } from 'kysely';

async function createConsents(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('encounter_consents')
    .addColumn('encounter_id', 'text', (column) => column.primaryKey().references('encounters.id').onDelete('cascade'))
    .addColumn('method', 'text', (column) => column.notNull().check(sql`method in ('verbal', 'written', 'electronic')`))
    .addColumn('note', 'text')
    .addColumn('clinician_id', 'text', (column) => column.notNull().references('clinicians.id').onDelete('cascade'))
    .addColumn('recorded_at', 'bigint', (column) => column.notNull())
    .execute();
}

async function createNotes(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('encounter_notes')
    .addColumn('id', 'text', (column) => column.primaryKey().references('notes.id').onDelete('cascade'))
    .addColumn('encounter_id', 'text', (column) => column.notNull().references('encounters.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (column) => column.notNull())
    // JSON array of {key, templateKey, label, text}: the sections under the host's keys, as edited.
    .addColumn('sections', 'text', (column) => column.notNull())
    .addColumn('note_text', 'text', (column) => column.notNull())
    .addColumn('transcript', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull().check(sql`source in ('transcript', 'conversation_text')`))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('encounter_notes_encounter')
    .on('encounter_notes')
    .columns(['encounter_id', 'created_at'])
    .execute();
}

async function createDocuments(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('encounter_documents')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('encounter_id', 'text', (column) => column.notNull().references('encounters.id').onDelete('cascade'))
    .addColumn('document_type', 'text', (column) =>
      column.notNull().check(sql`document_type in ('referral', 'letter', 'form')`),
    )
    .addColumn('format', 'text', (column) => column.notNull().check(sql`format in ('text', 'pdf')`))
    .addColumn('note_id', 'text', (column) => column.references('encounter_notes.id').onDelete('set null'))
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    // JSON array of {key, label, value}, for forms.
    .addColumn('fields', 'text')
    .addColumn('revision', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('encounter_documents_encounter')
    .on('encounter_documents')
    .columns(['encounter_id', 'created_at'])
    .execute();
  await db.schema.createIndex('encounter_documents_expires').on('encounter_documents').column('expires_at').execute();
  await db.schema.createIndex('encounter_documents_note').on('encounter_documents').column('note_id').execute();
}

async function createDocumentRevisions(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('encounter_document_revisions')
    .addColumn('document_id', 'text', (column) =>
      column.notNull().references('encounter_documents.id').onDelete('cascade'),
    )
    .addColumn('revision', 'integer', (column) => column.notNull())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('encounter_document_revisions_pk', ['document_id', 'revision'])
    .execute();
}

async function createServiceSecrets(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
}

/**
 * What the widget keeps for an encounter beside its audio: the patient's consent to recording, the
 * notes written for it (each tied to the generated note, so the notes retention sweep takes it
 * along), documents with every saved revision, and the service's shared secrets (the PDF link key).
 */
export const widgetEncounterRecords: Migration = {
  async up(db: Kysely<unknown>) {
    await createConsents(db);
    await createNotes(db);
    await createDocuments(db);
    await createDocumentRevisions(db);
    // The encounter sweep looks for encounters idle since a cutoff.
    await db.schema.createIndex('encounters_updated').on('encounters').column('updated_at').execute();
    await createServiceSecrets(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('service_secrets').execute();
    await db.schema.dropIndex('encounters_updated').execute();
    for (const table of [
      'encounter_document_revisions',
      'encounter_documents',
      'encounter_notes',
      'encounter_consents',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
