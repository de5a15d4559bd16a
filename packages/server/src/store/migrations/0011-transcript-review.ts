import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The transcript a clinician reviews before the note is written:
 *
 * - `transcript_segments.speaker_label`: which voice said a segment (`S1`, `S2`…). Segments of
 *   two-channel sessions stored before get the label of their channel (0 → `S1`, 1 → `S2`), as new
 *   ones do, so their roles can be swapped too; others stay unlabelled.
 * - `transcript_segment_revisions`: the clinician's corrections of a segment's text or speaker,
 *   one row each, deleted with the segment (and so with its realtime session).
 * - `transcript_speaker_roles`: the roles the clinician swapped for a realtime session's speaker
 *   labels, deleted with the session.
 */
export const transcriptReview: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('transcript_segments').addColumn('speaker_label', 'text').execute();
    // The audio format is stored as JSON.stringify writes it, so the channel count reads as this text.
    await sql`
      update transcript_segments
      set speaker_label = case channel when 0 then 'S1' else 'S2' end
      where session_id in (select id from realtime_sessions where audio_format like '%"channels":2%')`.execute(db);
    await db.schema
      .createTable('transcript_segment_revisions')
      .addColumn('session_id', 'text', (column) => column.notNull())
      .addColumn('seq', 'integer', (column) => column.notNull())
      .addColumn('revision', 'integer', (column) => column.notNull())
      .addColumn('text', 'text')
      .addColumn('speaker', 'text', (column) => column.check(sql`speaker in ('clinician', 'patient', 'unknown')`))
      .addColumn('clinician_id', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('transcript_segment_revisions_pk', ['session_id', 'seq', 'revision'])
      .addForeignKeyConstraint(
        'transcript_segment_revisions_segment',
        ['session_id', 'seq'],
        'transcript_segments',
        ['session_id', 'seq'],
        (constraint) => constraint.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createTable('transcript_speaker_roles')
      .addColumn('session_id', 'text', (column) =>
        column.notNull().references('realtime_sessions.id').onDelete('cascade'),
      )
      .addColumn('speaker_label', 'text', (column) => column.notNull())
      .addColumn('speaker', 'text', (column) => column.notNull().check(sql`speaker in ('clinician', 'patient')`))
      .addColumn('clinician_id', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('transcript_speaker_roles_pk', ['session_id', 'speaker_label'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('transcript_speaker_roles').execute();
    await db.schema.dropTable('transcript_segment_revisions').execute();
    await db.schema.alterTable('transcript_segments').dropColumn('speaker_label').execute();
  },
};
