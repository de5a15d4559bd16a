import type { Kysely, Selectable } from 'kysely';

import type { CredentialChanges } from './credential-changes.js';
import type { DatabaseSchema, PartnersTable } from './schema.js';

export type PartnerRow = Selectable<PartnersTable>;

/** Partners, which the partner-key guard caches: every update publishes a credential change. */
export class PartnersRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly changes: CredentialChanges,
  ) {}

  async insert(row: PartnerRow): Promise<void> {
    await this.db.insertInto('partners').values(row).execute();
  }

  async get(id: string): Promise<PartnerRow | undefined> {
    return this.db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(filter: { projectId?: string } = {}): Promise<PartnerRow[]> {
    let query = this.db.selectFrom('partners').selectAll();
    if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  /** Swaps in a new secret; the old one keeps working until `previousExpiresAt`. False if revoked or unknown. */
  async rotateSecret(
    id: string,
    next: { secretHash: string; secretHint: string },
    previous: { secretHash: string; expiresAt: number },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('partners')
      .set({
        secret_hash: next.secretHash,
        secret_hint: next.secretHint,
        previous_secret_hash: previous.secretHash,
        previous_secret_expires_at: previous.expiresAt,
      })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return this.published(Number(result.numUpdatedRows) === 1);
  }

  async setAllowedOrigins(id: string, allowedOrigins: string): Promise<void> {
    const result = await this.db
      .updateTable('partners')
      .set({ allowed_origins: allowedOrigins })
      .where('id', '=', id)
      .executeTakeFirst();
    await this.published(Number(result.numUpdatedRows) === 1);
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('partners')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return this.published(Number(result.numUpdatedRows) === 1);
  }

  private async published(changed: boolean): Promise<boolean> {
    if (changed) await this.changes.publish(this.db);
    return changed;
  }
}
