/**
 * Idempotency keys on the operations that create something (`idempotent: true` in the endpoint
 * table), as Stripe has them: the first answer to a key is kept for a day and given again to a retry
 * with the same key and body. Zod-free, so the client library takes these values without zod.
 */

/** The request header that carries the key. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The response header that marks an answer given again for a key rather than made now. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** How long the service keeps the first answer to a key. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 86_400;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** What is wrong with a key, phrased to follow its name; null for a key the service takes. */
export function idempotencyKeyProblem(key: string): string | null {
  if (key.length === 0) return 'must not be empty';
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`;
  if (!PRINTABLE_ASCII.test(key)) return 'must be printable ASCII characters only';
  return null;
}
