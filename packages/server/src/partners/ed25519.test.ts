import { generateKeyPairSync, verify } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { ed25519Signer, PREFERRED_ED25519 } from './ed25519.js';

describe('Ed25519 signing', () => {
  it('signs with libsodium where its addon loads (this platform: linux x64)', () => {
    expect(PREFERRED_ED25519).toBe('libsodium');
  });

  it('gives the signature node:crypto gives, byte for byte, and one that verifies', () => {
    for (let round = 0; round < 20; round++) {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const message = Buffer.from(`header.payload-${round}-${'x'.repeat(round * 37)}`);
      const sodium = ed25519Signer(privateKey, 'libsodium')(message);
      const openssl = ed25519Signer(privateKey, 'node:crypto')(message);
      expect(sodium.equals(openssl)).toBe(true);
      expect(verify(null, message, publicKey, sodium)).toBe(true);
    }
  });

  it('signs each message afresh with the same key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const sign = ed25519Signer(privateKey);
    const first = sign(Buffer.from('one'));
    const second = sign(Buffer.from('two'));
    expect(first.equals(second)).toBe(false);
    expect(verify(null, Buffer.from('one'), publicKey, first)).toBe(true);
    expect(verify(null, Buffer.from('two'), publicKey, second)).toBe(true);
  });
});
