import { sql, type Kysely, type Selectable } from 'kysely';

import type { Dialect } from './database.js';
import type { AuditEventsTable, DatabaseSchema } from './schema.js';

export type AuditEventRow = Selectable<AuditEventsTable>;

/** The end of the chain a new record links to: nothing yet, or the last record's place and hash. */
export type ChainHead = Pick<AuditEventRow, 'seq' | 'hash'> | undefined;

export interface AuditEventFilter {
  resourceType?: string;
  resourceId?: string;
  actorKind?: AuditEventRow['actor_kind'];
  actorId?: string;
  patientRef?: string;
  encounterId?: string;
  action?: AuditEventRow['action'];
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  limit?: number;
  /** An organisation's records: its own (members, sign-ins) and its projects'. */
  organisation?: { id: string; projectIds: readonly string[] };
  /** Newest first, older than this seq (a page's cursor). */
  newestFirst?: { beforeSeq?: number };
}

// Any constant both the service and the CLI use: the one lock PostgreSQL holds while a record is chained.
const POSTGRES_AUDIT_LOCK = 0x63_77_61_75;

export class AuditEventsRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Appends the record `build` makes from the chain's head, with no other writer between reading the
   * head and inserting (the service's instances and the CLI alike), so the chain never forks.
   */
  async append(build: (head: ChainHead) => AuditEventRow): Promise<AuditEventRow> {
    const insert = async (db: Kysely<DatabaseSchema>) => {
      const head = await db
        .selectFrom('audit_events')
        .select(['seq', 'hash'])
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      const row = build(head);
      await db.insertInto('audit_events').values(row).execute();
      return row;
    };
    if (this.dialect === 'postgres') {
      return this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${POSTGRES_AUDIT_LOCK})`.execute(trx);
        return insert(trx);
      });
    }
    // BEGIN IMMEDIATE takes SQLite's write lock before the head is read, so another process (the CLI)
    // waits rather than forking the chain.
    return this.db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      try {
        const row = await insert(connection);
        await sql`commit`.execute(connection);
        return row;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
  }

  /** Matching records, oldest first unless asked for the newest first. */
  async list(filter: AuditEventFilter): Promise<AuditEventRow[]> {
    let query = this.db
      .selectFrom('audit_events')
      .selectAll()
      .orderBy('seq', filter.newestFirst === undefined ? 'asc' : 'desc');
    const { organisation, newestFirst } = filter;
    if (organisation !== undefined) {
      query = query.where((eb) =>
        organisation.projectIds.length === 0
          ? eb('organisation_id', '=', organisation.id)
          : eb.or([eb('organisation_id', '=', organisation.id), eb('project_id', 'in', [...organisation.projectIds])]),
      );
    }
    if (newestFirst?.beforeSeq !== undefined) query = query.where('seq', '<', newestFirst.beforeSeq);
    if (filter.resourceType !== undefined) query = query.where('resource_type', '=', filter.resourceType);
    if (filter.resourceId !== undefined) query = query.where('resource_id', '=', filter.resourceId);
    if (filter.actorKind !== undefined) query = query.where('actor_kind', '=', filter.actorKind);
    if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
    if (filter.patientRef !== undefined) query = query.where('patient_ref', '=', filter.patientRef);
    if (filter.encounterId !== undefined) query = query.where('encounter_id', '=', filter.encounterId);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('occurred_at', '<', filter.until);
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    return query.execute();
  }

  /** The whole chain in order, a page at a time, so verifying a long log holds one page in memory. */
  async *chain(pageSize = 1000): AsyncGenerator<AuditEventRow> {
    let after = 0;
    for (;;) {
      const page = await this.db
        .selectFrom('audit_events')
        .selectAll()
        .where('seq', '>', after)
        .orderBy('seq', 'asc')
        .limit(pageSize)
        .execute();
      yield* page;
      const last = page.at(-1);
      if (last === undefined || page.length < pageSize) return;
      after = last.seq;
    }
  }

  /**
   * Deletes records older than `cutoff`, oldest first: what remains is still one unbroken chain,
   * starting at the oldest record kept.
   */
  async deleteBefore(cutoff: number): Promise<number> {
    const newestExpired = await this.db
      .selectFrom('audit_events')
      .select('seq')
      .where('occurred_at', '<', cutoff)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (newestExpired === undefined) return 0;
    const result = await this.db.deleteFrom('audit_events').where('seq', '<=', newestExpired.seq).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
