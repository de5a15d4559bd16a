import type { Kysely, Migration } from 'kysely';

/** The hourly retention sweep deletes realtime sessions by last activity; index it. */
export const realtimeRetention: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('realtime_sessions_last_seen').on('realtime_sessions').column('last_seen_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('realtime_sessions_last_seen').execute();
  },
};
