import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, TranscriptSegmentRevisionsTable, TranscriptSpeakerRolesTable } from './schema.js';

export type TranscriptSegmentRevisionRow = Selectable<TranscriptSegmentRevisionsTable>;
export type TranscriptSpeakerRoleRow = Selectable<TranscriptSpeakerRolesTable>;

/** The clinician's corrections of a realtime session's transcript: segment revisions and swapped speaker roles. */
export class TranscriptCorrectionsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * Stores the revision unless the segment already has one of that number (a correction saved
   * meanwhile); false then, so the caller can read the latest and try again.
   */
  async insertRevision(row: TranscriptSegmentRevisionRow): Promise<boolean> {
    const result = await this.db
      .insertInto('transcript_segment_revisions')
      .values(row)
      .onConflict((conflict) => conflict.columns(['session_id', 'seq', 'revision']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** The latest revision of each corrected segment of the session, by seq. */
  async latestRevisions(sessionId: string): Promise<Map<number, TranscriptSegmentRevisionRow>> {
    const rows = await this.db
      .selectFrom('transcript_segment_revisions')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('seq')
      .orderBy('revision')
      .execute();
    return new Map(rows.map((row) => [row.seq, row]));
  }

  /** The session's swapped roles: speaker label → role. */
  async roles(sessionId: string): Promise<Map<string, TranscriptSpeakerRoleRow['speaker']>> {
    const rows = await this.db
      .selectFrom('transcript_speaker_roles')
      .select(['speaker_label', 'speaker'])
      .where('session_id', '=', sessionId)
      .orderBy('speaker_label')
      .execute();
    return new Map(rows.map((row) => [row.speaker_label, row.speaker]));
  }

  /** Sets the roles of the labels given, in one transaction; labels not given keep theirs. */
  async setRoles(rows: readonly TranscriptSpeakerRoleRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (transaction) => {
      for (const row of rows) {
        await transaction
          .insertInto('transcript_speaker_roles')
          .values(row)
          .onConflict((conflict) =>
            conflict
              .columns(['session_id', 'speaker_label'])
              .doUpdateSet({ speaker: row.speaker, clinician_id: row.clinician_id, updated_at: row.updated_at }),
          )
          .execute();
      }
    });
  }
}
