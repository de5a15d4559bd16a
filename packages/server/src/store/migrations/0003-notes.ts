import { sql, type Kysely, type Migration } from 'kysely';

export const notes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notes')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment in ('test', 'live')`))
      .addColumn('template_id', 'text', (column) => column.notNull())
      .addColumn('template_version', 'integer', (column) => column.notNull())
      .addColumn('engine_name', 'text', (column) => column.notNull())
      .addColumn('engine_version', 'text', (column) => column.notNull())
      // JSON {engine, reason} when the configured engine failed and the fallback wrote the note.
      .addColumn('fallback', 'text')
      .addColumn('input_sha256', 'text', (column) => column.notNull())
      .addColumn('note_text', 'text', (column) => column.notNull())
      // JSON of the sections with their sentences and evidence.
      .addColumn('sections', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('notes_expires').on('notes').column('expires_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notes').execute();
  },
};
