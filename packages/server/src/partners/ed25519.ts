import { sign, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

/** Signs a message with one Ed25519 key. */
export type Ed25519Sign = (message: Buffer) => Buffer;

export type Ed25519Implementation = 'libsodium' | 'node:crypto';

/** The part of sodium-native this uses. */
interface Sodium {
  crypto_sign_PUBLICKEYBYTES: number;
  crypto_sign_SECRETKEYBYTES: number;
  crypto_sign_BYTES: number;
  crypto_sign_seed_keypair(publicKey: Buffer, secretKey: Buffer, seed: Buffer): void;
  crypto_sign_detached(signature: Buffer, message: Buffer, secretKey: Buffer): void;
}

/**
 * libsodium, when its prebuilt addon loads on this platform. It signs about three times faster
 * than OpenSSL behind `node:crypto` (24 µs against 72 µs on the bench machine), which is most of
 * what a widget token costs; everywhere else `node:crypto` signs, with the same result.
 */
const sodium: Sodium | null = (() => {
  try {
    return createRequire(import.meta.url)('sodium-native') as Sodium;
  } catch {
    return null;
  }
})();

export const PREFERRED_ED25519: Ed25519Implementation = sodium === null ? 'node:crypto' : 'libsodium';

/**
 * A signing function for `privateKey`. Ed25519 is deterministic, so both implementations give the
 * same signature for the same key and message, and tokens do not depend on which one signed.
 */
export function ed25519Signer(
  privateKey: KeyObject,
  implementation: Ed25519Implementation = PREFERRED_ED25519,
): Ed25519Sign {
  if (implementation === 'node:crypto' || sodium === null) return (message) => sign(null, message, privateKey);
  const { d } = privateKey.export({ format: 'jwk' });
  if (d === undefined) throw new Error('an Ed25519 private key has no seed');
  const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
  const secretKey = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_seed_keypair(publicKey, secretKey, Buffer.from(d, 'base64url'));
  const signatureBytes = sodium.crypto_sign_BYTES;
  return (message) => {
    const signature = Buffer.alloc(signatureBytes);
    sodium.crypto_sign_detached(signature, message, secretKey);
    return signature;
  };
}
