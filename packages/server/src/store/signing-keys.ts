import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, WidgetSigningKeysTable } from './schema.js';

export type SigningKeyRow = Selectable<WidgetSigningKeysTable>;

export class SigningKeysRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** Inserts unless a key with this kid exists. */
  async insertIfAbsent(row: SigningKeyRow): Promise<void> {
    await this.db
      .insertInto('widget_signing_keys')
      .values(row)
      .onConflict((conflict) => conflict.column('kid').doNothing())
      .execute();
  }

  /**
   * Forgets every private key an earlier version stored here: the signing key lives in the key file
   * (or configuration) now, and the rows keep only what the JWKS publishes.
   */
  async erasePrivateKeys(): Promise<void> {
    await this.db.updateTable('widget_signing_keys').set({ private_jwk: '' }).where('private_jwk', '!=', '').execute();
  }

  /** Oldest first: every instance picks the same signing key, however many raced to create one. */
  async list(): Promise<SigningKeyRow[]> {
    return this.db.selectFrom('widget_signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute();
  }
}
