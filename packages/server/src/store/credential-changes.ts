import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';

import type { DatabaseSchema } from './schema.js';

/**
 * Tells caches when stored credentials (API keys) may have changed, in this process or another
 * one (the CLI, another instance). Caches compare `version()` before trusting what they hold.
 */
export interface CredentialChanges {
  /**
   * A number that changes whenever credentials may have changed since it was last read; `null`
   * when changes cannot be observed right now, and then nothing may be served from a cache.
   */
  version(): number | null;
  /** Records a change made through this process's connection, for this process and every other. */
  publish(db: Kysely<DatabaseSchema>): Promise<void>;
  close(): Promise<void>;
}

/**
 * SQLite: `PRAGMA data_version` changes when any other connection (another process such as the
 * CLI) commits to the file; this connection's own changes are counted locally.
 *
 * Reading the pragma takes a read lock and was the largest cost of a cached request, so it is read
 * at most once per event-loop turn: requests handled in the same turn arrived together, and a
 * change committed elsewhere is seen by every request of the next turn.
 */
export function sqliteCredentialChanges(connection: SQLite.Database): CredentialChanges {
  const dataVersion = connection.prepare<[], number>('PRAGMA data_version').pluck();
  let local = 0;
  let external: number | null = null;
  const readExternal = (): number => {
    if (external === null) {
      external = connection.open ? (dataVersion.get() ?? 0) : 0;
      setImmediate(() => {
        external = null;
      });
    }
    return external;
  };
  return {
    // Both counters only grow, so their sum changes whenever either does.
    version: () => readExternal() + local,
    publish: () => {
      local += 1;
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

/**
 * PostgreSQL: a NOTIFY on every change, and a dedicated LISTEN connection per process that counts
 * them. Until that connection is up, or after it drops, `version()` is null so nothing is cached.
 * The connection opens on first use, so short-lived processes (the CLI) never open it.
 */
export function postgresCredentialChanges(connectionString: string, schema?: string): CredentialChanges {
  // Channels are database-wide; deployments in separate schemas of one database keep their own.
  const channel = schema === undefined ? 'chartwright_credentials' : `chartwright_credentials_${schema}`;
  let received = 0;
  let local = 0;
  let listening = false;
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = () => {
    if (client !== null || closed) return;
    const next = new pg.Client({ connectionString });
    client = next;
    const drop = () => {
      listening = false;
      client = null;
      next.removeAllListeners();
      void next.end().catch(() => undefined);
      if (!closed) {
        retry = setTimeout(connect, 1000);
        retry.unref();
      }
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', () => {
      received += 1;
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${channel}`))
      .then(() => {
        // Anything may have changed while we were not listening.
        received += 1;
        listening = true;
      })
      .catch(drop);
  };

  return {
    version: () => {
      if (!listening) {
        connect();
        return null;
      }
      return received + local;
    },
    publish: async (db) => {
      local += 1;
      await sql`select pg_notify(${channel}, '')`.execute(db);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      listening = false;
      if (current !== null) {
        current.removeAllListeners();
        await current.end().catch(() => undefined);
      }
    },
  };
}
