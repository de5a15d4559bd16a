import type { Kysely, Selectable } from 'kysely';

import type { ApiKeyRow } from './api-keys.js';
import type { DatabaseSchema, RealtimeTokensTable } from './schema.js';

export type RealtimeTokenRow = Selectable<RealtimeTokensTable>;

export interface RealtimeTokenWithParent {
  token: RealtimeTokenRow;
  parent: Pick<ApiKeyRow, 'id' | 'expires_at' | 'revoked_at'>;
}

export class RealtimeTokensRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: RealtimeTokenRow): Promise<void> {
    await this.db.insertInto('realtime_tokens').values(row).execute();
  }

  /** The token together with the state of the key that minted it, which bounds the token's life. */
  async findBySecretHash(secretHash: string): Promise<RealtimeTokenWithParent | undefined> {
    const row = await this.db
      .selectFrom('realtime_tokens as t')
      .innerJoin('api_keys as k', 'k.id', 't.api_key_id')
      .selectAll('t')
      .select(['k.expires_at as parent_expires_at', 'k.revoked_at as parent_revoked_at'])
      .where('t.secret_hash', '=', secretHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { parent_expires_at, parent_revoked_at, ...token } = row;
    return { token, parent: { id: token.api_key_id, expires_at: parent_expires_at, revoked_at: parent_revoked_at } };
  }

  /** Deletes tokens that expired before `before`; returns how many. */
  async deleteExpired(before: number): Promise<number> {
    const result = await this.db.deleteFrom('realtime_tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
