import { randomBytes } from 'node:crypto';

import { sql } from 'kysely';
import pg from 'pg';

import { openDatabase, type Database, type Dialect } from '@chartwright/server/internal/store/database.js';
import { migrateToLatest } from '@chartwright/server/internal/store/migrate.js';

/**
 * PostgreSQL for tests comes from TEST_DATABASE_URL (CI sets it to this machine's server). Locally
 * it may be absent, and those tests are skipped; in CI its absence is an error, never a skip.
 */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'];
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];

for (const [name, value] of [
  ['TEST_DATABASE_URL', TEST_DATABASE_URL],
  ['TEST_REDIS_URL', TEST_REDIS_URL],
] as const) {
  if (process.env['CI'] !== undefined && process.env['CI'] !== '' && value === undefined) {
    throw new Error(`${name} must be set in CI: the PostgreSQL and Redis tests may not be skipped there`);
  }
}

/** The dialects tests run against: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_DIALECTS: readonly Dialect[] = TEST_DATABASE_URL === undefined ? ['sqlite'] : ['sqlite', 'postgres'];

export interface TestDatabase {
  database: Database;
  /** The PostgreSQL schema it lives in (undefined on SQLite). */
  schema?: string;
  /** Closes the connection and drops the PostgreSQL schema the test used. */
  dispose(): Promise<void>;
}

/** A database of its own with nothing in it, not even the schema: in-memory SQLite, or a fresh PostgreSQL schema. */
export async function openEmptyTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const database = openDatabase({ kind: 'sqlite', path: ':memory:' });
    return { database, dispose: () => database.close() };
  }
  if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `cw_test_${randomBytes(6).toString('hex')}`;
  await administer(`create schema ${schema}`);
  const database = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL }, { schema });
  return {
    database,
    schema,
    dispose: async () => {
      await sql.raw(`drop schema ${schema} cascade`).execute(database.db);
      await database.close();
    },
  };
}

/** Runs one statement on TEST_DATABASE_URL's server, on a connection of its own. */
async function administer(statement: string): Promise<void> {
  if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * An empty PostgreSQL database of its own on TEST_DATABASE_URL's server, for service processes a
 * test starts: they take a DATABASE_URL and use its default schema, as a deployment does. Dispose
 * drops it, cutting any connection still open.
 */
export async function createTestPostgresDatabase(): Promise<{ url: string; dispose(): Promise<void> }> {
  if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const name = `cw_test_${randomBytes(6).toString('hex')}`;
  await administer(`create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), dispose: () => administer(`drop database if exists ${name} with (force)`) };
}

/**
 * A migrated PostgreSQL schema of its own and `count` separate connections to it, as that many
 * service instances sharing one database open. Dispose drops the schema and closes them all.
 */
export async function openSharedPostgres(count: number): Promise<{ databases: Database[]; dispose(): Promise<void> }> {
  const first = await openTestDatabase('postgres');
  const schema = first.schema;
  if (schema === undefined || TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const url = TEST_DATABASE_URL;
  const others = Array.from({ length: count - 1 }, () => openDatabase({ kind: 'postgres', url }, { schema }));
  return {
    databases: [first.database, ...others],
    dispose: async () => {
      for (const other of others) await other.close();
      await first.dispose();
    },
  };
}

/** A migrated, empty database of its own. */
export async function openTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const opened = await openEmptyTestDatabase(dialect);
  try {
    await migrateToLatest(opened.database);
  } catch (error) {
    await opened.dispose();
    throw error;
  }
  return opened;
}
