import type { Kysely, Selectable } from 'kysely';

import type { AdminTokensTable, DatabaseSchema } from './schema.js';

export type AdminTokenRow = Selectable<AdminTokensTable>;

export class AdminTokensRepository {
  // No credential cache holds admin tokens: each management request reads its token, so a revocation
  // holds on every instance at once.
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: AdminTokenRow): Promise<void> {
    await this.db.insertInto('admin_tokens').values(row).execute();
  }

  async findBySecretHash(secretHash: string): Promise<AdminTokenRow | undefined> {
    return this.db.selectFrom('admin_tokens').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
  }

  async get(id: string, organisationId: string): Promise<AdminTokenRow | undefined> {
    return this.db
      .selectFrom('admin_tokens')
      .selectAll()
      .where('id', '=', id)
      .where('organisation_id', '=', organisationId)
      .executeTakeFirst();
  }

  async list(organisationId: string): Promise<AdminTokenRow[]> {
    return this.db
      .selectFrom('admin_tokens')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async revoke(id: string, at: number): Promise<void> {
    await this.db
      .updateTable('admin_tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async recordUse(id: string, at: number): Promise<void> {
    await this.db.updateTable('admin_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
