import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Encodes bytes in base62 so secrets are URL-, header- and double-click-safe. */
function base62(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = BASE62.charAt(Number(value % 62n)) + out;
    value /= 62n;
  }
  // Fixed width, so every secret of a kind has the same length whatever its leading bytes.
  const width = Math.ceil((bytes.length * 8) / Math.log2(62));
  return out.padStart(width, '0');
}

/** A credential with `prefix` and 32 random bytes (256 bits) of entropy. */
export function generateSecret(prefix: string): string {
  return `${prefix}${base62(randomBytes(32))}`;
}

/** Storage form of a credential: lookups go by this hash, and the credential itself is never kept. */
export function hashSecret(secret: string): string {
  // The one-shot digest: every authenticated request hashes its credential, and a Hash object
  // costs three times as much as the digest itself.
  return hash('sha256', secret, 'hex');
}

/**
 * Whether a presented secret is the expected one, in time that tells nothing of either: their
 * digests are compared, so not even the expected secret's length shows.
 */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (secret: string) => hash('sha256', secret, 'buffer');
  return timingSafeEqual(digest(presented), digest(expected));
}

/** What a console shows of a key: its prefix and last four characters. */
export function secretHint(secret: string, prefix: string): string {
  return `${prefix}…${secret.slice(-4)}`;
}

// Identifiers are minted on every request; drawing their random characters from a pool filled a
// few KB at a time avoids a system call per id.
const ID_POOL_SIZE = 4096;
let idPool = randomBytes(ID_POOL_SIZE);
let idPoolOffset = 0;

/** A public identifier such as `key_0mwq9s8z1phAakc9ZJuzA`: time-ordered prefix, random rest, not a secret. */
export function generateId(prefix: string): string {
  if (idPoolOffset + 12 > ID_POOL_SIZE) {
    idPool = randomBytes(ID_POOL_SIZE);
    idPoolOffset = 0;
  }
  const time = Date.now().toString(36).padStart(9, '0');
  let random = '';
  for (let index = 0; index < 12; index += 1) {
    // Ids are not secrets, so the slight bias of `% 62` on a byte does not matter.
    random += BASE62.charAt((idPool[idPoolOffset + index] ?? 0) % 62);
  }
  idPoolOffset += 12;
  return `${prefix}_${time}${random}`;
}
