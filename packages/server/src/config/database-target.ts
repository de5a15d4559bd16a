import { dirname, join } from 'node:path';

/** Where the data lives: DATABASE_URL read as PostgreSQL or a SQLite file. */
export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export function databaseTarget(url: string): DatabaseTarget {
  if (/^(postgres|postgresql):\/\//i.test(url)) return { kind: 'postgres', url };
  return { kind: 'sqlite', path: url.replace(/^sqlite:/i, '') };
}

const KEY_FILE_NAME = 'chartwright.keys.json';

/** Beside a SQLite database (its data directory); in ./data for PostgreSQL; nowhere for an in-memory database. */
export function defaultKeyFile(database: DatabaseTarget): string | null {
  if (database.kind === 'postgres') return join('data', KEY_FILE_NAME);
  return database.path === ':memory:' ? null : join(dirname(database.path), KEY_FILE_NAME);
}
