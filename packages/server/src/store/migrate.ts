import { Migrator } from 'kysely';

import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';

export interface MigrationOutcome {
  applied: string[];
}

/** Brings the schema to the latest version; safe to run from several instances at once (Kysely locks). */
export async function migrateToLatest(database: Database): Promise<MigrationOutcome> {
  const migrator = new Migrator({ db: database.db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const name = failed?.migrationName ?? 'unknown';
    throw new Error(`migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return { applied: (results ?? []).map((result) => result.migrationName) };
}
