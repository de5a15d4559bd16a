import { timingSafeEqual } from 'node:crypto';

import type { Environment, ErrorDetail } from '@chartwright/protocol';

import { checkedGraceSeconds } from '../auth/api-keys.js';
import { CredentialCache } from '../auth/credential-cache.js';
import { generateId, generateSecret, hashSecret, secretHint } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { PartnerRow } from '../store/partners.js';
import type { Repositories } from '../store/repositories.js';
import { originProblem } from './origins.js';

/** Widget tokens live 24 hours unless the partner is set up otherwise (interface: Limits). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_400;
export const MAX_TOKEN_LIFETIME_SECONDS = 7 * 86_400;
const MIN_TOKEN_LIFETIME_SECONDS = 300;

export interface PartnerSummary {
  id: string;
  projectId: string;
  environment: Environment;
  name: string;
  secretHint: string;
  allowedOrigins: string[];
  tokenLifetimeSeconds: number;
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt: string | null;
  previousSecretExpiresAt: string | null;
}

/** A partner's credential as the EMR backend sends it: `X-Partner-Key: <id>.<secret>`. */
export interface IssuedPartnerKey {
  partner: PartnerSummary;
  partnerKey: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The partner's allowed origins, exactly as the frame policy and the widget use them. A stored value
 * that is not an exact origin (a wildcard accepted before 0014 dropped them) never gets out.
 */
export function partnerOrigins(row: Pick<PartnerRow, 'allowed_origins'>): string[] {
  return (JSON.parse(row.allowed_origins) as string[]).filter((origin) => originProblem(origin) === null);
}

/** What is wrong with each of `origins` that is not an exact origin, each under its index. */
function originDetails(origins: readonly string[]): ErrorDetail[] {
  if (origins.length === 0) return [{ path: 'allowedOrigins', message: 'must list at least one origin' }];
  return origins.flatMap((origin, index) => {
    const problem = originProblem(origin);
    return problem === null
      ? []
      : [{ path: `allowedOrigins[${index}]`, message: `${JSON.stringify(origin)} ${problem}` }];
  });
}

function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Partners (EMR vendors) of a project environment: their secret, embedding origins and token lifetime. */
export class PartnerService {
  readonly #cache: CredentialCache<PartnerRow>;

  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly defaultGraceSeconds: number,
  ) {
    this.#cache = new CredentialCache(repositories.credentialChanges, clock);
  }

  async create(input: {
    projectId: string;
    environment: Environment;
    name: string;
    allowedOrigins: readonly string[];
    tokenLifetimeSeconds?: number;
  }): Promise<IssuedPartnerKey> {
    if ((await this.repositories.projects.get(input.projectId)) === undefined) {
      throw new AppError('project_not_found', `No project has the id ${input.projectId}.`);
    }
    const name = input.name.trim();
    const problems: ErrorDetail[] = [];
    if (name === '' || name.length > 200) problems.push({ path: 'name', message: 'must be 1 to 200 characters' });
    const lifetime = input.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    if (!Number.isInteger(lifetime) || lifetime < MIN_TOKEN_LIFETIME_SECONDS || lifetime > MAX_TOKEN_LIFETIME_SECONDS) {
      problems.push({
        path: 'tokenLifetimeSeconds',
        message: `must be a whole number from ${MIN_TOKEN_LIFETIME_SECONDS} to ${MAX_TOKEN_LIFETIME_SECONDS}`,
      });
    }
    problems.push(...originDetails(input.allowedOrigins));
    if (problems.length > 0) throw AppError.invalidBody(problems);
    const origins = [...new Set(input.allowedOrigins)];

    const id = generateId('ptn');
    const secret = generateSecret('');
    const row: PartnerRow = {
      id,
      project_id: input.projectId,
      environment: input.environment,
      name,
      secret_hash: hashSecret(secret),
      secret_hint: secretHint(secret, `${id}.`),
      previous_secret_hash: null,
      previous_secret_expires_at: null,
      allowed_origins: JSON.stringify(origins),
      token_lifetime_seconds: lifetime,
      created_at: this.clock.now(),
      revoked_at: null,
    };
    await this.repositories.partners.insert(row);
    return { partner: this.summarize(row), partnerKey: `${id}.${secret}` };
  }

  async list(filter: { projectId?: string } = {}): Promise<PartnerSummary[]> {
    return (await this.repositories.partners.list(filter)).map((row) => this.summarize(row));
  }

  /** The project's partner, or 404: a partner of another project does not exist for it. */
  async requireInProject(partnerId: string, projectId: string): Promise<PartnerSummary> {
    const row = await this.require(partnerId);
    if (row.project_id !== projectId) throw new AppError('partner_not_found', `No partner has the id ${partnerId}.`);
    return this.summarize(row);
  }

  /** A new secret at once; the old one keeps working for the grace period (default as for API keys). */
  async rotateSecret(partnerId: string, options: { graceSeconds?: number } = {}): Promise<IssuedPartnerKey> {
    const existing = await this.require(partnerId);
    const grace = checkedGraceSeconds(options.graceSeconds ?? this.defaultGraceSeconds);
    const secret = generateSecret('');
    const rotated = await this.repositories.partners.rotateSecret(
      partnerId,
      { secretHash: hashSecret(secret), secretHint: secretHint(secret, `${partnerId}.`) },
      { secretHash: existing.secret_hash, expiresAt: this.clock.now() + grace * 1000 },
    );
    if (!rotated) throw new AppError('partner_not_active', `Partner ${partnerId} was revoked.`);
    return { partner: this.summarize(await this.require(partnerId)), partnerKey: `${partnerId}.${secret}` };
  }

  /**
   * Replaces the origins allowed to embed the partner's widget, at once: the next widget page is
   * framed by these alone. For a partner whose stored origins 0014 dropped as inexact, too.
   */
  async setOrigins(partnerId: string, allowedOrigins: readonly string[]): Promise<PartnerSummary> {
    await this.require(partnerId);
    const problems = originDetails(allowedOrigins);
    if (problems.length > 0) throw AppError.invalidBody(problems);
    await this.repositories.partners.setAllowedOrigins(partnerId, JSON.stringify([...new Set(allowedOrigins)]));
    return this.summarize(await this.require(partnerId));
  }

  /** Immediate: the partner's key, widget tokens and sessions, and realtime tokens all stop. */
  async revoke(partnerId: string): Promise<PartnerSummary> {
    await this.require(partnerId);
    await this.repositories.partners.revoke(partnerId, this.clock.now());
    return this.summarize(await this.require(partnerId));
  }

  /**
   * Checks `X-Partner-Key: <PARTNER_ID>.<PARTNER_SECRET>`. The secret is compared by hash in
   * constant time, and a wrong secret costs the same as an unknown id. Partner rows are cached
   * (dropped on any credential change, so a revocation stops the next request): whether an id is
   * cached can show in timing, but ids are no secret (every widget token carries its partner's).
   */
  async authenticate(header: string | undefined): Promise<PartnerRow> {
    if (header === undefined || header.trim() === '') {
      throw new AppError(
        'missing_partner_key',
        'Send the partner key as "X-Partner-Key: <PARTNER_ID>.<PARTNER_SECRET>".',
      );
    }
    const invalid = () => new AppError('invalid_partner_key', 'The partner key is not valid.');
    const separator = header.indexOf('.');
    if (separator <= 0 || header.length > 256) throw invalid();
    const presentedHash = hashSecret(header.slice(separator + 1).trim());
    const partner = await this.lookUp(header.slice(0, separator).trim());
    const current = partner?.secret_hash ?? presentedHash.replace(/./g, '0');
    const matchesCurrent = hashesEqual(presentedHash, current);
    const matchesPrevious =
      partner?.previous_secret_hash != null &&
      partner.previous_secret_expires_at !== null &&
      this.clock.now() < partner.previous_secret_expires_at &&
      hashesEqual(presentedHash, partner.previous_secret_hash);
    if (partner === undefined || !(matchesCurrent || matchesPrevious)) throw invalid();
    if (partner.revoked_at !== null) throw new AppError('partner_revoked', 'The partner was revoked.');
    return partner;
  }

  private async lookUp(id: string): Promise<PartnerRow | undefined> {
    const version = this.#cache.sync();
    let partner = this.#cache.get(id);
    if (partner === undefined) {
      partner = await this.repositories.partners.get(id);
      if (partner !== undefined) this.#cache.set(id, partner, version);
    }
    return partner;
  }

  summarize(row: PartnerRow): PartnerSummary {
    const previousActive = row.previous_secret_expires_at !== null && this.clock.now() < row.previous_secret_expires_at;
    return {
      id: row.id,
      projectId: row.project_id,
      environment: row.environment,
      name: row.name,
      secretHint: row.secret_hint,
      allowedOrigins: partnerOrigins(row),
      tokenLifetimeSeconds: row.token_lifetime_seconds,
      status: row.revoked_at === null ? 'active' : 'revoked',
      createdAt: new Date(row.created_at).toISOString(),
      revokedAt: iso(row.revoked_at),
      previousSecretExpiresAt: previousActive ? iso(row.previous_secret_expires_at) : null,
    };
  }

  private async require(partnerId: string): Promise<PartnerRow> {
    const row = await this.repositories.partners.get(partnerId);
    if (row === undefined) throw new AppError('partner_not_found', `No partner has the id ${partnerId}.`);
    return row;
  }
}
