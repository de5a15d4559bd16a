import {
  CREDENTIAL_PREFIXES,
  type AdminToken,
  type AdminTokenRole,
  type IssuedAdminToken,
} from '@chartwright/protocol';

import { generateId, generateSecret, hashSecret, secretHint } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { AdminTokenRow } from '../store/admin-tokens.js';
import type { Repositories } from '../store/repositories.js';
import { creatorOf, requirePermission, type ConsolePrincipal } from './principal.js';

const HOUR_MS = 3_600_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const view = (row: AdminTokenRow): AdminToken => ({
  id: row.id,
  name: row.name,
  role: row.role,
  hint: row.hint,
  status: row.revoked_at === null ? 'active' : 'revoked',
  createdAt: new Date(row.created_at).toISOString(),
  createdBy: { kind: row.created_by_kind, id: row.created_by_id, label: row.created_by_label },
  lastUsedAt: iso(row.last_used_at),
  revokedAt: iso(row.revoked_at),
});

/**
 * Organisation admin tokens: automation's credential for the management API, scoped by a role
 * (never owner), stored as a hash, shown once, revocable. Only owners make and revoke them.
 */
export class AdminTokens {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
  ) {}

  async create(principal: ConsolePrincipal, input: { name: string; role: AdminTokenRole }): Promise<IssuedAdminToken> {
    requirePermission(principal, 'admin_tokens:manage', 'create admin tokens');
    const prefix = CREDENTIAL_PREFIXES.adminToken;
    const secret = generateSecret(prefix);
    const creator = creatorOf(principal);
    const row: AdminTokenRow = {
      id: generateId('adm'),
      organisation_id: principal.organisationId,
      name: input.name,
      role: input.role,
      secret_hash: hashSecret(secret),
      hint: secretHint(secret, prefix),
      created_by_kind: creator.kind,
      created_by_id: creator.id,
      created_by_label: creator.label,
      created_at: this.clock.now(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.repositories.adminTokens.insert(row);
    return { token: view(row), secret };
  }

  async list(principal: ConsolePrincipal): Promise<AdminToken[]> {
    return (await this.repositories.adminTokens.list(principal.organisationId)).map(view);
  }

  async revoke(principal: ConsolePrincipal, tokenId: string): Promise<AdminToken> {
    requirePermission(principal, 'admin_tokens:manage', 'revoke admin tokens');
    const row = await this.repositories.adminTokens.get(tokenId, principal.organisationId);
    if (row === undefined) throw new AppError('admin_token_not_found', `No admin token has the id ${tokenId}.`);
    await this.repositories.adminTokens.revoke(row.id, this.clock.now());
    return view((await this.repositories.adminTokens.get(tokenId, principal.organisationId)) ?? row);
  }

  /** The principal an admin token stands for; its last use is recorded to the hour. */
  async authenticate(secret: string): Promise<ConsolePrincipal> {
    const row = await this.repositories.adminTokens.findBySecretHash(hashSecret(secret));
    if (row === undefined) throw new AppError('invalid_admin_token', 'The admin token is not one this service issued.');
    if (row.revoked_at !== null) throw new AppError('admin_token_revoked', 'The admin token was revoked.');
    const now = this.clock.now();
    if (row.last_used_at === null || now - row.last_used_at >= HOUR_MS) {
      await this.repositories.adminTokens.recordUse(row.id, now - (now % HOUR_MS));
    }
    return {
      kind: 'admin_token',
      id: row.id,
      label: row.name,
      organisationId: row.organisation_id,
      role: row.role,
      sessionIdHash: null,
    };
  }
}
