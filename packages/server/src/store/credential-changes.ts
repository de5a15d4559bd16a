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
 * How long a reading of SQLite's change counter is trusted. A change committed by another process
 * (the CLI, another instance on the same file) is seen within this long, as PostgreSQL's
 * notifications take milliseconds to arrive; this process's own changes are seen at once.
 */
export const SQLITE_CHANGE_CHECK_MS = 10;

/**
 * SQLite: `PRAGMA data_version` changes when any other connection (another process such as the
 * CLI) commits to the file; this connection's own changes are counted locally.
 *
 * Reading the pragma opens a read transaction (file locks: 3–13 µs), the largest cost of a cached
 * request when it was read once per event-loop turn (a turn under load handles about one request),
 * so one reading serves every request for SQLITE_CHANGE_CHECK_MS.
 */
export function sqliteCredentialChanges(connection: SQLite.Database): CredentialChanges {
  const dataVersion = connection.prepare<[], number>('PRAGMA data_version').pluck();
  let local = 0;
  let external: number | null = null;
  const forget = (): void => {
    external = null;
  };
  const readExternal = (): number => {
    if (external === null) {
      external = connection.open ? (dataVersion.get() ?? 0) : 0;
      setTimeout(forget, SQLITE_CHANGE_CHECK_MS).unref();
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
 * One LISTEN connection on a channel, counting its notifications. Until it is connected, or after it
 * drops (it reconnects after a second), `received()` is null: notifications may have been missed.
 */
class ChannelListener {
  #received = 0;
  #listening = false;
  #client: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
  ) {}

  /** Notifications counted so far; connects on first use, so short-lived processes never do. */
  received(): number | null {
    if (!this.#listening) {
      this.connect();
      return null;
    }
    return this.#received;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const current = this.#client;
    this.#client = null;
    this.#listening = false;
    if (current !== null) {
      current.removeAllListeners();
      await current.end().catch(() => undefined);
    }
  }

  private connect(): void {
    if (this.#client !== null || this.#closed) return;
    const next = new pg.Client({ connectionString: this.connectionString });
    this.#client = next;
    const drop = () => {
      this.#listening = false;
      this.#client = null;
      next.removeAllListeners();
      void next.end().catch(() => undefined);
      if (!this.#closed) {
        this.#retry = setTimeout(() => this.connect(), 1000);
        this.#retry.unref();
      }
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', () => {
      this.#received += 1;
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${this.channel}`))
      .then(() => {
        // Anything may have changed while we were not listening.
        this.#received += 1;
        this.#listening = true;
      })
      .catch(drop);
  }
}

/**
 * PostgreSQL: a NOTIFY on every change, and a dedicated LISTEN connection per process that counts
 * them. Until that connection is up, or after it drops, `version()` is null so nothing is cached.
 * The connection opens on first use, so short-lived processes (the CLI) never open it.
 */
export function postgresCredentialChanges(connectionString: string, schema?: string): CredentialChanges {
  // Channels are database-wide; deployments in separate schemas of one database keep their own.
  const channel = schema === undefined ? 'chartwright_credentials' : `chartwright_credentials_${schema}`;
  const listener = new ChannelListener(connectionString, channel);
  let local = 0;
  return {
    version: () => {
      const received = listener.received();
      return received === null ? null : received + local;
    },
    publish: async (db) => {
      local += 1;
      await sql`select pg_notify(${channel}, '')`.execute(db);
    },
    close: () => listener.close(),
  };
}
