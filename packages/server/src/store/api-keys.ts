import type { Environment } from '@chartwright/protocol';
import type { Kysely, Selectable } from 'kysely';

import type { CredentialChanges } from './credential-changes.js';
import type { ApiKeysTable, DatabaseSchema } from './schema.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export class ApiKeysRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly changes: CredentialChanges,
  ) {}

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  async get(id: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findBySecretHash(secretHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
  }

  async list(filter: { projectId?: string; environment?: Environment } = {}): Promise<ApiKeyRow[]> {
    let query = this.db.selectFrom('api_keys').selectAll();
    if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
    if (filter.environment !== undefined) query = query.where('environment', '=', filter.environment);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  /**
   * Inserts the replacement and starts the old key's grace period in one transaction, so a failure
   * never leaves a project with a half-rotated key. Returns false when the old key was already
   * rotated or revoked by someone else in the meantime.
   */
  async rotate(oldKeyId: string, replacement: ApiKeyRow, graceEndsAt: number): Promise<boolean> {
    const rotated = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('api_keys')
        .set({ expires_at: graceEndsAt, replaced_by: replacement.id })
        .where('id', '=', oldKeyId)
        .where('replaced_by', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.insertInto('api_keys').values(replacement).execute();
      return true;
    });
    if (rotated) await this.changes.publish(this.db);
    return rotated;
  }

  /** Keys used since the last call, to the hour: one write per key per hour, not per request. */
  async recordUse(ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', 'in', [...ids])
      .execute();
  }

  /** Returns false when the key does not exist or was already revoked. */
  async revoke(id: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(result.numUpdatedRows) === 1;
    if (revoked) await this.changes.publish(this.db);
    return revoked;
  }
}
