import { CREDENTIAL_PREFIXES, LIMITS, realtimeWsUrl, type RealtimeToken } from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { Repositories } from '../store/repositories.js';
import type { Principal } from './principal.js';
import { generateId, generateSecret, hashSecret } from './secrets.js';

// Expired tokens are kept a day so a refused connection can still say "expired" rather than "unknown".
const EXPIRED_TOKEN_RETENTION_MS = 86_400_000;

export interface EnvironmentUrls {
  publicBaseUrl: string;
  sandboxBaseUrl: string;
}

/** Mints temporary svc_rt_ tokens, bound to the project, environment and key that asked for them. */
export class RealtimeTokenService {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly urls: EnvironmentUrls,
  ) {}

  async mint(
    principal: Principal,
    expiresInSeconds: number = LIMITS.realtimeTokenDefaultSeconds,
  ): Promise<RealtimeToken> {
    if (principal.kind !== 'api_key') {
      throw new AppError('temporary_token_not_allowed', 'Temporary tokens cannot create other tokens.');
    }
    const now = this.clock.now();
    const secret = generateSecret(CREDENTIAL_PREFIXES.realtimeToken);
    const expiresAt = now + expiresInSeconds * 1000;
    await this.repositories.realtimeTokens.insert({
      id: generateId('rtt'),
      secret_hash: hashSecret(secret),
      project_id: principal.projectId,
      environment: principal.environment,
      api_key_id: principal.apiKeyId,
      created_at: now,
      expires_at: expiresAt,
    });
    await this.repositories.realtimeTokens.deleteExpired(now - EXPIRED_TOKEN_RETENTION_MS);
    const baseUrl = principal.environment === 'live' ? this.urls.publicBaseUrl : this.urls.sandboxBaseUrl;
    return { token: secret, wsUrl: realtimeWsUrl(baseUrl), expiresAt: new Date(expiresAt).toISOString() };
  }
}
