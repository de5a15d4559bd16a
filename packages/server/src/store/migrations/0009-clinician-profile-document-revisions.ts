import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The clinician's profile and documents kept as one draft per kind:
 *
 * - `clinicians.display_name`: how the clinician signs letters, set once in the widget.
 * - `encounter_documents.recipient`: whom a referral is addressed to, so regenerating it keeps it.
 * - `encounter_documents.superseded_by`: an encounter has one current document per kind (a partial
 *   unique index holds it); asking again for a kind writes a new revision of it. Encounters that
 *   already hold several documents of a kind keep them all, PDF links included: the latest stays
 *   current and the earlier ones point to it.
 * - `encounter_document_revisions.origin` and `.fields`: whether the service (`generated`) or the
 *   clinician (`edited`) wrote a revision, and a form's fields at it, so an edited version replaced
 *   by a regeneration can be shown and restored. Revision 1 was written by the service and every
 *   later one by the clinician; the current revision of a form gets its fields (earlier ones had
 *   only their text stored).
 */
export const clinicianProfileDocumentRevisions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('clinicians').addColumn('display_name', 'text').execute();
    await db.schema.alterTable('encounter_documents').addColumn('recipient', 'text').execute();
    await db.schema.alterTable('encounter_documents').addColumn('superseded_by', 'text').execute();
    await sql`
      update encounter_documents set superseded_by = (
        select later.id from encounter_documents later
        where later.encounter_id = encounter_documents.encounter_id
          and later.document_type = encounter_documents.document_type
        order by later.created_at desc, later.id desc
        limit 1)
      where exists (
        select 1 from encounter_documents later
        where later.encounter_id = encounter_documents.encounter_id
          and later.document_type = encounter_documents.document_type
          and (later.created_at > encounter_documents.created_at
            or (later.created_at = encounter_documents.created_at and later.id > encounter_documents.id)))`.execute(db);
    await db.schema
      .createIndex('encounter_documents_one_per_kind')
      .on('encounter_documents')
      .columns(['encounter_id', 'document_type'])
      .unique()
      .where(sql.ref('superseded_by'), 'is', null)
      .execute();
    await db.schema
      .alterTable('encounter_document_revisions')
      .addColumn('origin', 'text', (column) => column.notNull().defaultTo('edited'))
      .execute();
    await db.schema.alterTable('encounter_document_revisions').addColumn('fields', 'text').execute();
    await sql`update encounter_document_revisions set origin = 'generated' where revision = 1`.execute(db);
    await sql`
      update encounter_document_revisions set fields = (
        select document.fields from encounter_documents document
        where document.id = encounter_document_revisions.document_id
          and document.revision = encounter_document_revisions.revision)`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('encounter_document_revisions').dropColumn('fields').execute();
    await db.schema.alterTable('encounter_document_revisions').dropColumn('origin').execute();
    await db.schema.dropIndex('encounter_documents_one_per_kind').execute();
    await db.schema.alterTable('encounter_documents').dropColumn('superseded_by').execute();
    await db.schema.alterTable('encounter_documents').dropColumn('recipient').execute();
    await db.schema.alterTable('clinicians').dropColumn('display_name').execute();
  },
};
