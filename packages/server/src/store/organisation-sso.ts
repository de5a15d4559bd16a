import type { Kysely, Selectable } from 'kysely';

import type { ConsoleSsoLoginsTable, DatabaseSchema, OrganisationSsoTable } from './schema.js';

export type OrganisationSsoRow = Selectable<OrganisationSsoTable>;
export type ConsoleSsoLoginRow = Selectable<ConsoleSsoLoginsTable>;

/** Organisations' OpenID providers, and sign-ins waiting for the provider's answer. */
export class OrganisationSsoRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async get(organisationId: string): Promise<OrganisationSsoRow | undefined> {
    return this.db
      .selectFrom('organisation_sso')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .executeTakeFirst();
  }

  async put(row: OrganisationSsoRow): Promise<void> {
    await this.db
      .insertInto('organisation_sso')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('organisation_id').doUpdateSet({
          issuer: row.issuer,
          client_id: row.client_id,
          client_secret_sealed: row.client_secret_sealed,
          password_sign_in: row.password_sign_in,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  async delete(organisationId: string): Promise<void> {
    await this.db.deleteFrom('organisation_sso').where('organisation_id', '=', organisationId).execute();
  }

  async insertLogin(row: ConsoleSsoLoginRow): Promise<void> {
    await this.db.insertInto('console_sso_logins').values(row).execute();
  }

  /** The sign-in waiting under this state, consumed: a provider's answer is used once. */
  async takeLogin(stateHash: string, now: number): Promise<ConsoleSsoLoginRow | undefined> {
    const row = await this.db
      .deleteFrom('console_sso_logins')
      .where('state_hash', '=', stateHash)
      .returningAll()
      .executeTakeFirst();
    return row !== undefined && row.expires_at > now ? row : undefined;
  }

  async deleteExpiredLogins(now: number): Promise<number> {
    const result = await this.db.deleteFrom('console_sso_logins').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
