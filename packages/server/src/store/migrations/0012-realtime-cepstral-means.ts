import type { Kysely, Migration } from 'kysely';

/**
 * `realtime_sessions.cepstral_means`: per channel (a JSON array, null for a channel with no final
 * yet), the recognizer's cepstral mean after the channel's last final, stored when the session loses
 * its socket or ends, so that a resume, on any instance, hears its first words as the ones before
 * were heard (asr/pocketsphinx/native.ts). Sessions stored before this migration have none: their
 * resume starts cold, as every resume did.
 */
export const realtimeCepstralMeans: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('realtime_sessions').addColumn('cepstral_means', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('realtime_sessions').dropColumn('cepstral_means').execute();
  },
};
