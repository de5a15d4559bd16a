import { Migrator, sql } from 'kysely';

import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';

export interface MigrationOutcome {
  applied: string[];
}

/** A migrator bound to the schema this connection works in. */
export async function createMigrator(database: Database): Promise<Migrator> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one, so a second
  // schema in the same PostgreSQL database (another app, another test run) would be mistaken for ours.
  const schema =
    database.dialect === 'postgres'
      ? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(database.db)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db: database.db,
    provider: migrationProvider,
    ...(schema === undefined || schema === null ? {} : { migrationTableSchema: schema }),
  });
}

/** Brings the schema to the latest version; safe to run from several instances at once (Kysely locks). */
export async function migrateToLatest(database: Database): Promise<MigrationOutcome> {
  const migrator = await createMigrator(database);
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
