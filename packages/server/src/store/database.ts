import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import pg from 'pg';

import type { DatabaseTarget } from '../config/config.js';
import { postgresCredentialChanges, sqliteCredentialChanges, type CredentialChanges } from './credential-changes.js';
import type { DatabaseSchema } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<DatabaseSchema>;
  readonly dialect: Dialect;
  /** Signals changes to stored credentials, so authentication can cache key lookups safely. */
  readonly credentialChanges: CredentialChanges;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /**
   * After deletions: gives freed pages back and empties the write-ahead log, so deleted rows leave
   * no copy in the files (SQLite; PostgreSQL's autovacuum reclaims dead rows itself).
   */
  compact(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL schema to use instead of `public`; tests give each run its own. */
  schema?: string;
}

// Epoch-millisecond columns are bigint in PostgreSQL; they fit a double exactly for 285,000 years,
// so this pool reads int8 as a number instead of pg's default string.
const bigintAsNumber: pg.CustomTypesConfig = {
  getTypeParser: (oid, format) =>
    oid === pg.types.builtins.INT8 ? Number : (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
};

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew, and parsing the SQL was a tenth of an authenticated request's
 * CPU. Queries come from a small set of shapes (values are bound parameters), so a bounded cache
 * of prepared statements keyed by SQL text removes that cost. Safe because better-sqlite3 runs
 * each statement to completion synchronously; Kysely never streams our queries.
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = connection.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

const OWNER_ONLY_FILE = 0o600;
const OWNER_ONLY_DIRECTORY = 0o700;
const AUTO_VACUUM_INCREMENTAL = 2;

/**
 * The database holds patient data: its file, and the log and index files SQLite makes beside it
 * (which take the database file's mode), are the service user's alone. A directory we create is
 * too; one the operator chose keeps its mode, since the files in it are closed either way.
 */
function createOwnerOnly(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: OWNER_ONLY_DIRECTORY });
  if (!existsSync(path)) closeSync(openSync(path, 'a', OWNER_ONLY_FILE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, OWNER_ONLY_FILE);
  }
}

/**
 * Deleted rows must not stay readable in the file: secure_delete zeroes their bytes, and incremental
 * auto-vacuum lets the retention sweep give freed pages back. A database made before this setting
 * is rebuilt once (VACUUM) to take it.
 */
function eraseOnDelete(connection: SQLite.Database): void {
  connection.pragma('secure_delete = ON');
  if (connection.pragma('auto_vacuum', { simple: true }) === AUTO_VACUUM_INCREMENTAL) return;
  connection.pragma('auto_vacuum = INCREMENTAL');
  const tables = connection.prepare('select count(*) as n from sqlite_master').get() as { n: number };
  if (tables.n > 0) connection.exec('VACUUM');
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') createOwnerOnly(path);
  const connection = new SQLite(path);
  eraseOnDelete(connection);
  connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('synchronous = NORMAL');
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return {
    db,
    dialect: 'sqlite',
    credentialChanges: sqliteCredentialChanges(connection),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    compact: async () => {
      await sql`pragma incremental_vacuum`.execute(db);
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    },
    close: () => db.destroy(),
  };
}

function openPostgres(url: string, options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: bigintAsNumber,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  const credentialChanges = postgresCredentialChanges(url, options.schema);
  return {
    db,
    dialect: 'postgres',
    credentialChanges,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    compact: () => Promise.resolve(),
    close: async () => {
      await credentialChanges.close();
      await db.destroy();
    },
  };
}

export function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Database {
  if (options.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) {
    throw new Error('schema must be a lower-case SQL identifier');
  }
  return target.kind === 'sqlite' ? openSqlite(target.path) : openPostgres(target.url, options);
}
