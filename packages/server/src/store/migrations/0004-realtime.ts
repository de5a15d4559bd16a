import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Realtime sessions and their transcript: each `final` segment is stored before it is sent, so a
 * client that reconnects with the session id and resume token gets every segment it missed.
 */
export const realtime: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('realtime_sessions')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('project_id', 'text', (column) => column.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment in ('test', 'live')`))
      .addColumn('credential_kind', 'text', (column) =>
        column.notNull().check(sql`credential_kind in ('api_key', 'realtime_token')`),
      )
      // Who opened the session: the key (directly or through the token it minted), or the partner.
      .addColumn('api_key_id', 'text', (column) => column.references('api_keys.id').onDelete('cascade'))
      .addColumn('partner_id', 'text', (column) => column.references('partners.id').onDelete('cascade'))
      // The widget encounter the audio belongs to (sessions opened with a widget's token).
      .addColumn('encounter_id', 'text', (column) => column.references('encounters.id').onDelete('cascade'))
      // SHA-256 of the resume token; the token itself is never stored.
      .addColumn('resume_token_hash', 'text', (column) => column.notNull().unique())
      // JSON of the audio format the session started with.
      .addColumn('audio_format', 'text', (column) => column.notNull())
      .addColumn('language', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('last_seen_at', 'bigint', (column) => column.notNull())
      .addColumn('ended_at', 'bigint')
      // The `ended` event's reason; null while the session may still be going (or was interrupted).
      .addColumn('end_reason', 'text')
      // Audio transcribed to the end (the recognizer flushed): a resume skips resent audio up to here.
      .addColumn('audio_ms', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('realtime_sessions_project_env')
      .on('realtime_sessions')
      .columns(['project_id', 'environment'])
      .execute();
    await db.schema.createIndex('realtime_sessions_encounter').on('realtime_sessions').column('encounter_id').execute();

    await db.schema
      .createTable('transcript_segments')
      .addColumn('session_id', 'text', (column) =>
        column.notNull().references('realtime_sessions.id').onDelete('cascade'),
      )
      .addColumn('seq', 'integer', (column) => column.notNull())
      // The segment's id as sent: seg_000001…
      .addColumn('id', 'text', (column) => column.notNull())
      .addColumn('text', 'text', (column) => column.notNull())
      .addColumn('start_ms', 'bigint', (column) => column.notNull())
      .addColumn('end_ms', 'bigint', (column) => column.notNull())
      .addColumn('channel', 'integer', (column) => column.notNull())
      .addColumn('speaker', 'text', (column) =>
        column.notNull().check(sql`speaker in ('clinician', 'patient', 'unknown')`),
      )
      // JSON array of {word, startMs, endMs, confidence?}, when the engine gives words.
      .addColumn('words', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('transcript_segments_pk', ['session_id', 'seq'])
      .addUniqueConstraint('transcript_segments_session_segment', ['session_id', 'id'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('transcript_segments').execute();
    await db.schema.dropTable('realtime_sessions').execute();
  },
};
