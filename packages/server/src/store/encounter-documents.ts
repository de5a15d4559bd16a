import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, EncounterDocumentRevisionsTable, EncounterDocumentsTable } from './schema.js';

export type EncounterDocumentRow = Selectable<EncounterDocumentsTable>;
export type EncounterDocumentRevisionRow = Selectable<EncounterDocumentRevisionsTable>;
export type RevisionOrigin = EncounterDocumentRevisionRow['origin'];

/** The revision row that stores `row`'s current text. */
const revisionOf = (row: EncounterDocumentRow, origin: RevisionOrigin): EncounterDocumentRevisionRow => ({
  document_id: row.id,
  revision: row.revision,
  title: row.title,
  content: row.content,
  fields: row.fields,
  origin,
  created_at: row.updated_at,
});

export class EncounterDocumentsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * Stores the encounter's document of its kind with its first revision; an earlier one of that
   * kind past its retention (not yet swept) stops being current. Throws when the encounter already
   * has a current document of the kind (a unique index): the caller writes a revision of it instead.
   */
  async insert(row: EncounterDocumentRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('encounter_documents')
        .set({ superseded_by: row.id })
        .where('encounter_id', '=', row.encounter_id)
        .where('document_type', '=', row.document_type)
        .where('superseded_by', 'is', null)
        .where('expires_at', '<=', row.created_at)
        .execute();
      await trx.insertInto('encounter_documents').values(row).execute();
      await trx.insertInto('encounter_document_revisions').values(revisionOf(row, 'generated')).execute();
    });
  }

  /** The encounter's current, retained document of `kind`. */
  async currentOfKind(
    encounterId: string,
    kind: EncounterDocumentRow['document_type'],
    now: number,
  ): Promise<EncounterDocumentRow | undefined> {
    return this.db
      .selectFrom('encounter_documents')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .where('document_type', '=', kind)
      .where('superseded_by', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * Who wrote the document's current revision, and the latest revision the clinician edited before
   * it (what a regeneration replaced).
   */
  async history(
    row: Pick<EncounterDocumentRow, 'id' | 'revision'>,
  ): Promise<{ origin: RevisionOrigin; lastEdit: EncounterDocumentRevisionRow | undefined }> {
    const rows = await this.db
      .selectFrom('encounter_document_revisions')
      .selectAll()
      .where('document_id', '=', row.id)
      .where((where) =>
        where.or([
          where('revision', '=', row.revision),
          where.and([where('origin', '=', 'edited'), where('revision', '<', row.revision)]),
        ]),
      )
      .orderBy('revision', 'desc')
      .limit(2)
      .execute();
    const [current, earlier] = rows;
    return { origin: current?.origin ?? 'edited', lastEdit: earlier };
  }

  /** The document, only if it belongs to the encounter and is still retained. */
  async get(encounterId: string, id: string, now: number): Promise<EncounterDocumentRow | undefined> {
    return this.db
      .selectFrom('encounter_documents')
      .selectAll()
      .where('id', '=', id)
      .where('encounter_id', '=', encounterId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** The encounter's retained documents, latest first. */
  async list(encounterId: string, now: number): Promise<EncounterDocumentRow[]> {
    return this.db
      .selectFrom('encounter_documents')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .where('superseded_by', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * Saves `next` as the document's next revision, written by `origin`, only if it is still at
   * `next.revision - 1`; returns false when another edit got there first.
   */
  async saveRevision(next: EncounterDocumentRow, origin: RevisionOrigin): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('encounter_documents')
        .set({
          title: next.title,
          content: next.content,
          fields: next.fields,
          format: next.format,
          note_id: next.note_id,
          recipient: next.recipient,
          revision: next.revision,
          updated_at: next.updated_at,
        })
        .where('id', '=', next.id)
        .where('revision', '=', next.revision - 1)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.insertInto('encounter_document_revisions').values(revisionOf(next, origin)).execute();
      return true;
    });
  }

  /**
   * One revision of a retained document, with the document and whether the partner whose encounter
   * it belongs to was revoked.
   */
  async getRevision(
    id: string,
    revision: number,
    now: number,
  ): Promise<
    { document: EncounterDocumentRow; revision: EncounterDocumentRevisionRow; partnerRevoked: boolean } | undefined
  > {
    const document = await this.db
      .selectFrom('encounter_documents')
      .innerJoin('encounters', 'encounters.id', 'encounter_documents.encounter_id')
      .innerJoin('partners', 'partners.id', 'encounters.partner_id')
      .selectAll('encounter_documents')
      .select('partners.revoked_at as partner_revoked_at')
      .where('encounter_documents.id', '=', id)
      .where('encounter_documents.expires_at', '>', now)
      .executeTakeFirst();
    if (document === undefined) return undefined;
    const stored = await this.db
      .selectFrom('encounter_document_revisions')
      .selectAll()
      .where('document_id', '=', id)
      .where('revision', '=', revision)
      .executeTakeFirst();
    if (stored === undefined) return undefined;
    const { partner_revoked_at, ...row } = document;
    return { document: row, revision: stored, partnerRevoked: partner_revoked_at !== null };
  }

  /** Deletes documents past their retention (their revisions go with them); returns how many. */
  async deleteExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('encounter_documents').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The encounter a document belongs to. */
  async encounterIdOf(id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('encounter_documents')
      .select('encounter_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.encounter_id;
  }

  /** Deletes the document now, with every revision; false when there is none (in that encounter). */
  async delete(id: string, encounterId?: string): Promise<boolean> {
    let query = this.db.deleteFrom('encounter_documents').where('id', '=', id);
    if (encounterId !== undefined) query = query.where('encounter_id', '=', encounterId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
