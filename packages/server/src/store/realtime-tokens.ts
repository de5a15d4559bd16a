import type { Kysely, Selectable } from 'kysely';

import type { DatabaseSchema, RealtimeTokensTable } from './schema.js';

export type RealtimeTokenRow = Selectable<RealtimeTokensTable>;

/** Who minted a token, and the state of that credential, which bounds the token's life. */
export interface TokenIssuerState {
  kind: 'api_key' | 'partner';
  id: string;
  expires_at: number | null;
  revoked_at: number | null;
}

export interface RealtimeTokenWithIssuer {
  token: RealtimeTokenRow;
  issuer: TokenIssuerState;
}

export class RealtimeTokensRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async insert(row: RealtimeTokenRow): Promise<void> {
    await this.db.insertInto('realtime_tokens').values(row).execute();
  }

  async findBySecretHash(secretHash: string): Promise<RealtimeTokenWithIssuer | undefined> {
    const row = await this.db
      .selectFrom('realtime_tokens as t')
      .leftJoin('api_keys as k', 'k.id', 't.api_key_id')
      .leftJoin('partners as p', 'p.id', 't.partner_id')
      .selectAll('t')
      .select([
        'k.expires_at as key_expires_at',
        'k.revoked_at as key_revoked_at',
        'p.revoked_at as partner_revoked_at',
      ])
      .where('t.secret_hash', '=', secretHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { key_expires_at, key_revoked_at, partner_revoked_at, ...token } = row;
    const issuer: TokenIssuerState =
      token.api_key_id !== null
        ? { kind: 'api_key', id: token.api_key_id, expires_at: key_expires_at, revoked_at: key_revoked_at }
        : { kind: 'partner', id: token.partner_id ?? '', expires_at: null, revoked_at: partner_revoked_at };
    return { token, issuer };
  }

  /** Deletes tokens that expired before `before`; returns how many. */
  async deleteExpired(before: number): Promise<number> {
    const result = await this.db.deleteFrom('realtime_tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Ends the audio rights of an encounter's tokens (consent withdrawn); their sockets close at their next check. */
  async deleteForEncounter(encounterId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('realtime_tokens')
      .where('encounter_id', '=', encounterId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
