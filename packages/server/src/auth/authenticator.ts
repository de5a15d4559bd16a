import { parseCredentialPrefix } from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ApiKeyRow } from '../store/api-keys.js';
import type { CredentialChanges } from '../store/credential-changes.js';
import type { Repositories } from '../store/repositories.js';
import { keyStatus } from './api-keys.js';
import { CredentialCache } from './credential-cache.js';
import type { Principal } from './principal.js';
import { hashSecret } from './secrets.js';

// Far longer than any credential we issue; longer input is refused before it is hashed.
const MAX_CREDENTIAL_LENGTH = 256;

const invalid = () => new AppError('invalid_api_key', 'The key or token is not valid.');

/**
 * Turns a presented credential (permanent key or temporary token) into a Principal, or refuses it.
 * Errors say what is wrong with the credential but never repeat it.
 */
export class Authenticator {
  readonly #keyCache: CredentialCache<ApiKeyRow>;

  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    credentialChanges: CredentialChanges,
  ) {
    this.#keyCache = new CredentialCache(credentialChanges, clock);
  }

  async authenticate(credential: string): Promise<Principal> {
    const prefix = credential.length <= MAX_CREDENTIAL_LENGTH ? parseCredentialPrefix(credential) : null;
    if (prefix === null) throw invalid();
    const hash = hashSecret(credential);
    return prefix.kind === 'api_key' ? this.fromApiKey(hash) : this.fromRealtimeToken(hash);
  }

  private async fromApiKey(hash: string): Promise<Principal> {
    const version = this.#keyCache.sync();
    let key = this.#keyCache.get(hash);
    if (key === undefined) {
      key = await this.repositories.apiKeys.findBySecretHash(hash);
      if (key === undefined) throw invalid();
      this.#keyCache.set(hash, key, version);
    }
    this.assertKeyUsable(key, 'The API key');
    return {
      kind: 'api_key',
      projectId: key.project_id,
      environment: key.environment,
      apiKeyId: key.id,
      expiresAt: key.expires_at,
    };
  }

  private async fromRealtimeToken(hash: string): Promise<Principal> {
    const found = await this.repositories.realtimeTokens.findBySecretHash(hash);
    if (found === undefined) throw invalid();
    const { token, issuer } = found;
    if (this.clock.now() >= token.expires_at) {
      throw new AppError('realtime_token_expired', 'The realtime token has expired; mint a new one.');
    }
    if (issuer.kind === 'partner') {
      if (issuer.revoked_at !== null) {
        throw new AppError('partner_revoked', 'The partner whose widget minted this token was revoked.');
      }
    } else {
      this.assertKeyUsable(issuer, 'The API key that minted this token');
    }
    return {
      kind: 'realtime_token',
      projectId: token.project_id,
      environment: token.environment,
      tokenId: token.id,
      issuer: { kind: issuer.kind, id: issuer.id },
      encounterId: token.encounter_id,
      // A token never outlives its parent key's grace period.
      expiresAt: issuer.expires_at === null ? token.expires_at : Math.min(token.expires_at, issuer.expires_at),
    };
  }

  private assertKeyUsable(key: Pick<ApiKeyRow, 'expires_at' | 'revoked_at'>, subject: string): void {
    const status = keyStatus(key, this.clock.now());
    if (status === 'revoked') throw new AppError('api_key_revoked', `${subject} was revoked.`);
    if (status === 'expired') {
      throw new AppError('api_key_expired', `${subject} was rotated and its grace period has ended.`);
    }
  }
}

/** Extracts the credential from `Authorization: Bearer <credential>`. */
export function credentialFromAuthorization(header: string | undefined, credential = 'API key'): string {
  if (header === undefined || header.trim() === '') {
    throw new AppError('missing_authorization', `Send your ${credential} as "Authorization: Bearer <${credential}>".`);
  }
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (match?.[1] === undefined) {
    throw new AppError('malformed_authorization', `The Authorization header must be "Bearer <${credential}>".`);
  }
  return match[1];
}
