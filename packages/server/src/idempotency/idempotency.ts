import { createHash } from 'node:crypto';

import { IDEMPOTENCY_KEY_TTL_SECONDS, type ErrorCode, type ErrorDetail } from '@chartwright/protocol';

import { generateId } from '../auth/secrets.js';
import { canonicalJson } from '../canonical-json.js';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../console/secret-box.js';
import { AppError } from '../errors.js';
import type { IdempotencyClaim, IdempotencyKeyId, IdempotencyKeysRepository } from '../store/idempotency-keys.js';

/**
 * How long a key answers `idempotency_key_in_use` while its first request runs. Longer than any
 * request takes (a note from a slow engine, queued first), so it lapses only for a request whose
 * instance stopped mid-way; then a retry runs the operation again.
 */
const IN_FLIGHT_LEASE_MS = 10 * 60_000;
const IN_USE_RETRY_AFTER_SECONDS = 1;
/** A claim lost to another request between our insert and our read is tried again this many times. */
const CLAIM_ATTEMPTS = 3;

/** One call of an operation with a key: whose, which operation, and what a retry must repeat. */
export interface IdempotentCall extends IdempotencyKeyId {
  params: unknown;
  /** The validated body. */
  body: unknown;
}

/** An answer as it is kept and given again: a success's result, or a deliberate error. */
export type KeptAnswer = { status: number; headers: Readonly<Record<string, string>> } & (
  { result: unknown } | { error: { code: ErrorCode; message: string; details: readonly ErrorDetail[] } }
);

/** The request holds the key and runs; its answer is then kept or the key given back. */
export interface HeldKey {
  readonly id: IdempotencyKeyId;
  readonly claim: string;
}

export type Begun = { kind: 'run'; held: HeldKey } | { kind: 'replay'; answer: KeptAnswer };

/** What the answer made, so deleting it deletes the kept copy: a note's or document's id, an encounter's. */
function resourceIdOf(answer: KeptAnswer): string | null {
  if (!('result' in answer) || typeof answer.result !== 'object' || answer.result === null) return null;
  const { id, sessionId } = answer.result as { id?: unknown; sessionId?: unknown };
  if (typeof id === 'string') return id;
  return typeof sessionId === 'string' ? sessionId : null;
}

/**
 * Idempotency keys as Stripe has them: the first answer to a key, per caller and operation, is
 * kept for 24 hours and given again to a retry with the same path and body; another body gets
 * `idempotency_key_reused`, and a retry while the first request runs `idempotency_key_in_use`.
 * Answers a retry might change (5xx, 429) are not kept, so the retry runs again. Kept answers are
 * sealed: they may hold a note's text or a new credential's secret.
 */
export class Idempotency {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
    /** Seals kept answers under a key outside the database. */
    private readonly box: SecretBox,
  ) {}

  async begin(call: IdempotentCall): Promise<Begun> {
    const { keys, clock } = this;
    const id: IdempotencyKeyId = { scope: call.scope, operation: call.operation, key: call.key };
    const requestHash = createHash('sha256')
      .update(canonicalJson({ params: call.params, body: call.body }))
      .digest('hex');
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
      const now = clock.now();
      const claim: IdempotencyClaim = {
        request_hash: requestHash,
        claim: generateId('idem'),
        locked_until: now + IN_FLIGHT_LEASE_MS,
        created_at: now,
        expires_at: now + IDEMPOTENCY_KEY_TTL_SECONDS * 1000,
      };
      const held = { kind: 'run', held: { id, claim: claim.claim } } as const;
      if (await keys.claim(id, claim)) return held;
      const row = await keys.find(id);
      // Given back since the insert failed: claim it again.
      if (row === undefined) continue;
      if (row.expires_at <= now) {
        if (await keys.takeOver(id, claim, now)) return held;
        continue;
      }
      if (row.request_hash !== requestHash) throw keyReused();
      if (row.response_status === null || row.response === null) {
        if (row.locked_until > now) throw keyInUse();
        if (await keys.takeOver(id, claim, now)) return held;
        continue;
      }
      return { kind: 'replay', answer: JSON.parse(this.box.open(row.response)) as KeptAnswer };
    }
    throw keyInUse();
  }

  /** Keeps the answer for the key's retries, or gives the key back when a retry might be answered otherwise. */
  async settle(held: HeldKey, answer: KeptAnswer): Promise<void> {
    if (answer.status >= 500 || answer.status === 429) return this.release(held);
    await this.keys.complete(held.id, held.claim, {
      status: answer.status,
      response: this.box.seal(JSON.stringify(answer)),
      resourceId: resourceIdOf(answer),
    });
  }

  /** Gives the key back: the next request with it runs the operation. */
  async release(held: HeldKey): Promise<void> {
    await this.keys.release(held.id, held.claim);
  }
}

function keyReused(): AppError {
  return new AppError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used for this operation with another body or path; send a new key with a new request.',
  );
}

function keyInUse(): AppError {
  return new AppError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being served; retry after Retry-After seconds to get its answer.',
    { headers: { 'retry-after': String(IN_USE_RETRY_AFTER_SECONDS) } },
  );
}
