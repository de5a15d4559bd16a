import type { Kysely, Migration } from 'kysely';

/**
 * A resume decodes the utterance a lost socket cut again, whole, from audio the client resends:
 *
 * - `realtime_sessions.committed_ms`: per channel (a JSON array), how far the audio was committed
 *   when the session last lost its socket or ended: where a resume decodes that channel from.
 * - `transcript_segments.provisional`: 1 for a segment stored after its socket was lost (the open
 *   utterance decoded up to the cut), which a resume that resends its audio replaces. Segments
 *   stored before this migration were sent or are kept as they are: 0.
 */
export const realtimeResumeInContext: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('realtime_sessions').addColumn('committed_ms', 'text').execute();
    await db.schema
      .alterTable('transcript_segments')
      .addColumn('provisional', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('transcript_segments').dropColumn('provisional').execute();
    await db.schema.alterTable('realtime_sessions').dropColumn('committed_ms').execute();
  },
};
