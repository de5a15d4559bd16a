/**
 * A new Idempotency-Key: a random (version 4) UUID. `crypto.randomUUID` where there is one (Node 19+,
 * browsers on https or localhost); else `crypto.getRandomValues` (browsers on plain http). Node 18
 * has no global Web Crypto in modules, and the package takes no Node built-in, so there the bytes
 * come from `Math.random`: a key needs to be unique among its caller's requests of a day, not secret.
 */
export function newIdempotencyKey(scope: object = globalThis): string {
  const crypto = (scope as { crypto?: Partial<Pick<Crypto, 'randomUUID' | 'getRandomValues'>> }).crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(bytes);
  else for (let index = 0; index < bytes.length; index += 1) bytes[index] = Math.floor(Math.random() * 256);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
