import type { Kysely, Selectable } from 'kysely';

import type { ConsoleLinksTable, ConsoleMembersTable, ConsoleSessionsTable, DatabaseSchema } from './schema.js';

export type ConsoleMemberRow = Selectable<ConsoleMembersTable>;
export type ConsoleSessionRow = Selectable<ConsoleSessionsTable>;
export type ConsoleLinkRow = Selectable<ConsoleLinksTable>;

/** Console members, their sessions and the one-time links that make members. */
export class ConsoleMembersRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async get(id: string): Promise<ConsoleMemberRow | undefined> {
    return this.db.selectFrom('console_members').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByEmail(email: string): Promise<ConsoleMemberRow | undefined> {
    return this.db.selectFrom('console_members').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async list(organisationId: string): Promise<ConsoleMemberRow[]> {
    return this.db
      .selectFrom('console_members')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async countOwners(organisationId: string): Promise<number> {
    const { count } = await this.db
      .selectFrom('console_members')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('organisation_id', '=', organisationId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Creates the member and consumes the link that invited them, both or neither. */
  async insertFromLink(row: ConsoleMemberRow, linkId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const consumed = await trx.deleteFrom('console_links').where('id', '=', linkId).executeTakeFirst();
      if (Number(consumed.numDeletedRows) !== 1) return false;
      await trx.insertInto('console_members').values(row).execute();
      return true;
    });
  }

  async setRole(id: string, role: ConsoleMemberRow['role']): Promise<void> {
    await this.db.updateTable('console_members').set({ role }).where('id', '=', id).execute();
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('console_members').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  }

  async recordSignIn(id: string, at: number): Promise<void> {
    await this.db.updateTable('console_members').set({ last_sign_in_at: at }).where('id', '=', id).execute();
  }

  /** Removes the member; their sessions go with them (foreign key cascade, and explicitly for SQLite). */
  async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('console_sessions').where('member_id', '=', id).execute();
      await trx.deleteFrom('console_members').where('id', '=', id).execute();
    });
  }

  async insertSession(row: ConsoleSessionRow): Promise<void> {
    await this.db.insertInto('console_sessions').values(row).execute();
  }

  /** The session and its member, in one read: every console request makes it. */
  async findSession(idHash: string): Promise<{ session: ConsoleSessionRow; member: ConsoleMemberRow } | undefined> {
    const row = await this.db
      .selectFrom('console_sessions as s')
      .innerJoin('console_members as m', 'm.id', 's.member_id')
      .select([
        's.id_hash',
        's.member_id',
        's.csrf_token',
        's.created_at as session_created_at',
        's.last_seen_at',
        's.expires_at',
        'm.id',
        'm.organisation_id',
        'm.email',
        'm.name',
        'm.role',
        'm.password_hash',
        'm.created_at',
        'm.last_sign_in_at',
      ])
      .where('s.id_hash', '=', idHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { id_hash, member_id, csrf_token, session_created_at, last_seen_at, expires_at, ...member } = row;
    return {
      session: { id_hash, member_id, csrf_token, created_at: session_created_at, last_seen_at, expires_at },
      member,
    };
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    await this.db.updateTable('console_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteSessionsOf(memberId: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('member_id', '=', memberId).execute();
  }

  /** Sessions past their absolute or idle expiry (the retention sweep). */
  async deleteExpiredSessions(now: number, idleMs: number): Promise<number> {
    const result = await this.db
      .deleteFrom('console_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - idleMs)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async insertLink(row: ConsoleLinkRow): Promise<void> {
    await this.db.insertInto('console_links').values(row).execute();
  }

  async findLink(tokenHash: string): Promise<ConsoleLinkRow | undefined> {
    return this.db.selectFrom('console_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async invitations(organisationId: string, now: number): Promise<ConsoleLinkRow[]> {
    return this.db
      .selectFrom('console_links')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .where('kind', '=', 'invitation')
      .where('expires_at', '>', now)
      .orderBy('created_at')
      .execute();
  }

  /** Deletes the organisation's link; false when it has none with this id. */
  async deleteLink(id: string, organisationId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('console_links')
      .where('id', '=', id)
      .where('organisation_id', '=', organisationId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Replaces the organisation's unused links of a kind (a new setup link voids the last one). */
  async deleteLinksOfKind(organisationId: string, kind: ConsoleLinkRow['kind']): Promise<void> {
    await this.db
      .deleteFrom('console_links')
      .where('organisation_id', '=', organisationId)
      .where('kind', '=', kind)
      .execute();
  }

  async deleteExpiredLinks(now: number): Promise<number> {
    const result = await this.db.deleteFrom('console_links').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
