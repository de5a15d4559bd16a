import { apiKeyPrefix, LIMITS, type ApiKey, type ConsoleActor, type Environment } from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ApiKeyRow } from '../store/api-keys.js';
import type { Repositories } from '../store/repositories.js';
import { generateId, generateSecret, hashSecret, secretHint } from './secrets.js';

export type ApiKeyStatus = ApiKey['status'];

export type ApiKeySummary = ApiKey;

/** What the CLI on the server records as a credential's maker. */
export const CLI_CREATOR: ConsoleActor = { kind: 'cli', id: null, label: 'chartwright CLI' };

const ROTATION_RECOMMENDED_MS = LIMITS.keyRotationRecommendedDays * 86_400_000;

/** A key just created: the only moment its secret exists outside the caller's hands. */
export interface IssuedApiKey {
  key: ApiKeySummary;
  secret: string;
}

/** A grace period in whole seconds within the 90 days a rotation allows, or a 400 naming `graceSeconds`. */
export function checkedGraceSeconds(graceSeconds: number): number {
  // Bounded like KEY_ROTATION_GRACE_SECONDS: an end past what a Date can hold would rotate the key
  // and then fail to show the replacement, leaving the project's keys unlistable.
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > LIMITS.rotationGraceMaxSeconds) {
    throw AppError.invalidBody([
      { path: 'graceSeconds', message: `must be a whole number of seconds, 0 to ${LIMITS.rotationGraceMaxSeconds}` },
    ]);
  }
  return graceSeconds;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function keyStatus(row: Pick<ApiKeyRow, 'expires_at' | 'revoked_at'>, now: number): ApiKeyStatus {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at === null) return 'active';
  return now < row.expires_at ? 'grace' : 'expired';
}

/** Creates, lists, rotates and revokes permanent API keys. */
export class ApiKeyService {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly defaultGraceSeconds: number,
  ) {}

  async create(input: {
    projectId: string;
    environment: Environment;
    name?: string;
    creator?: ConsoleActor;
  }): Promise<IssuedApiKey> {
    await this.requireProject(input.projectId);
    const { row, secret } = this.newKey(
      input.projectId,
      input.environment,
      input.name ?? 'default',
      input.creator ?? CLI_CREATOR,
    );
    await this.repositories.apiKeys.insert(row);
    return { key: this.summarize(row), secret };
  }

  async list(filter: { projectId?: string; environment?: Environment } = {}): Promise<ApiKeySummary[]> {
    if (filter.projectId !== undefined) await this.requireProject(filter.projectId);
    const rows = await this.repositories.apiKeys.list(filter);
    return rows.map((row) => this.summarize(row));
  }

  /**
   * Issues a replacement at once; the old key keeps working until the grace period ends and is
   * refused afterwards by the expiry check at authentication, with no background job involved.
   */
  async rotate(
    keyId: string,
    options: { graceSeconds?: number; creator?: ConsoleActor } = {},
  ): Promise<{ replacement: IssuedApiKey; previous: ApiKeySummary }> {
    const old = await this.requireKey(keyId);
    const graceSeconds = checkedGraceSeconds(options.graceSeconds ?? this.defaultGraceSeconds);
    const { row, secret } = this.newKey(old.project_id, old.environment, old.name, options.creator ?? CLI_CREATOR);
    const rotated = await this.repositories.apiKeys.rotate(old.id, row, this.clock.now() + graceSeconds * 1000);
    if (!rotated) {
      throw new AppError('api_key_not_active', `Key ${old.id} was already rotated or revoked.`);
    }
    const previous = await this.requireKey(old.id);
    return { replacement: { key: this.summarize(row), secret }, previous: this.summarize(previous) };
  }

  /** The project's key, or 404: a key of another project does not exist for it. */
  async requireInProject(keyId: string, projectId: string): Promise<ApiKeySummary> {
    const row = await this.requireKey(keyId);
    if (row.project_id !== projectId) throw new AppError('api_key_not_found', `No API key has the id ${keyId}.`);
    return this.summarize(row);
  }

  /** Revocation takes effect on the next request, including for realtime tokens the key minted. */
  async revoke(keyId: string): Promise<ApiKeySummary> {
    const existing = await this.requireKey(keyId);
    if (existing.revoked_at === null) await this.repositories.apiKeys.revoke(keyId, this.clock.now());
    return this.summarize(await this.requireKey(keyId));
  }

  summarize(row: ApiKeyRow): ApiKeySummary {
    const now = this.clock.now();
    const status = keyStatus(row, now);
    return {
      id: row.id,
      projectId: row.project_id,
      environment: row.environment,
      name: row.name,
      hint: row.hint,
      status,
      createdAt: new Date(row.created_at).toISOString(),
      createdBy:
        row.created_by_kind === null
          ? null
          : { kind: row.created_by_kind, id: row.created_by_id, label: row.created_by_label ?? '' },
      lastUsedAt: iso(row.last_used_at),
      expiresAt: iso(row.expires_at),
      revokedAt: iso(row.revoked_at),
      replacedBy: row.replaced_by,
      rotationRecommended: status === 'active' && now - row.created_at >= ROTATION_RECOMMENDED_MS,
    };
  }

  private newKey(
    projectId: string,
    environment: Environment,
    name: string,
    creator: ConsoleActor,
  ): { row: ApiKeyRow; secret: string } {
    const prefix = apiKeyPrefix(environment);
    const secret = generateSecret(prefix);
    const row: ApiKeyRow = {
      id: generateId('key'),
      project_id: projectId,
      environment,
      name,
      secret_hash: hashSecret(secret),
      hint: secretHint(secret, prefix),
      created_at: this.clock.now(),
      expires_at: null,
      revoked_at: null,
      replaced_by: null,
      created_by_kind: creator.kind,
      created_by_id: creator.id,
      created_by_label: creator.label,
      last_used_at: null,
    };
    return { row, secret };
  }

  private async requireProject(projectId: string): Promise<void> {
    if ((await this.repositories.projects.get(projectId)) === undefined) {
      throw new AppError('project_not_found', `No project has the id ${projectId}.`);
    }
  }

  private async requireKey(keyId: string): Promise<ApiKeyRow> {
    const row = await this.repositories.apiKeys.get(keyId);
    if (row === undefined) throw new AppError('api_key_not_found', `No API key has the id ${keyId}.`);
    return row;
  }
}
