import {
  CREDENTIAL_PREFIXES,
  LIMITS,
  realtimeWsUrl,
  type Environment,
  type RealtimeToken,
} from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import type { Repositories } from '../store/repositories.js';
import type { TokenIssuer } from './principal.js';
import { generateId, generateSecret, hashSecret } from './secrets.js';

// Expired tokens are kept a day so a refused connection can still say "expired" rather than "unknown".
const EXPIRED_TOKEN_RETENTION_MS = 86_400_000;

export interface MintRequest {
  projectId: string;
  environment: Environment;
  issuer: TokenIssuer;
  /** Default 3600; the caller has validated the 60–3600 range. */
  expiresInSeconds?: number;
  /** The token never outlives this instant (e.g. the widget session that asked for it). */
  notAfter?: number;
  encounterId?: string;
}

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

  async mint(request: MintRequest): Promise<RealtimeToken> {
    const now = this.clock.now();
    const secret = generateSecret(CREDENTIAL_PREFIXES.realtimeToken);
    const lifetimeMs = (request.expiresInSeconds ?? LIMITS.realtimeTokenDefaultSeconds) * 1000;
    const expiresAt = Math.min(now + lifetimeMs, request.notAfter ?? Number.POSITIVE_INFINITY);
    await this.repositories.realtimeTokens.insert({
      id: generateId('rtt'),
      secret_hash: hashSecret(secret),
      project_id: request.projectId,
      environment: request.environment,
      api_key_id: request.issuer.kind === 'api_key' ? request.issuer.id : null,
      partner_id: request.issuer.kind === 'partner' ? request.issuer.id : null,
      encounter_id: request.encounterId ?? null,
      created_at: now,
      expires_at: expiresAt,
    });
    await this.repositories.realtimeTokens.deleteExpired(now - EXPIRED_TOKEN_RETENTION_MS);
    const baseUrl = request.environment === 'live' ? this.urls.publicBaseUrl : this.urls.sandboxBaseUrl;
    return { token: secret, wsUrl: realtimeWsUrl(baseUrl), expiresAt: new Date(expiresAt).toISOString() };
  }
}
