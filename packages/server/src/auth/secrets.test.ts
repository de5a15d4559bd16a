import { createHash } from 'node:crypto';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { generateId, generateSecret, hashSecret, secretHint } from './secrets.js';

const BASE62_BODY = /^[0-9A-Za-z]{43}$/;

/** Decodes a base62 body back to the number it encodes. */
function decodeBase62(body: string): bigint {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let value = 0n;
  for (const char of body) value = value * 62n + BigInt(alphabet.indexOf(char));
  return value;
}

describe('generateSecret', () => {
  it('starts with the prefix and carries a 43-character base62 body (32 bytes)', () => {
    for (const prefix of ['sk_test_', 'sk_live_', 'svc_rt_']) {
      const secret = generateSecret(prefix);
      expect(secret.startsWith(prefix)).toBe(true);
      expect(secret.slice(prefix.length)).toMatch(BASE62_BODY);
    }
  });

  it('always has the same length, whatever the leading random bytes', () => {
    const lengths = new Set(Array.from({ length: 2000 }, () => generateSecret('sk_test_').length));
    expect([...lengths]).toEqual(['sk_test_'.length + 43]);
  });

  it('encodes a number below 2^256, and the bodies use the whole 256-bit range', () => {
    const limit = 1n << 256n;
    let highBitSeen = false;
    for (let index = 0; index < 200; index += 1) {
      const value = decodeBase62(generateSecret('sk_live_').slice('sk_live_'.length));
      expect(value < limit).toBe(true);
      if (value >= 1n << 255n) highBitSeen = true;
    }
    // Half of all 32-byte values have the top bit set; 200 draws without one would mean fewer bytes.
    expect(highBitSeen).toBe(true);
  });

  it('never repeats across many secrets', () => {
    const secrets = Array.from({ length: 10_000 }, () => generateSecret('sk_test_'));
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('uses every base62 character, not a narrower alphabet', () => {
    // The leading character of a body is drawn from a smaller range, so it is left out.
    const seen = new Set(
      Array.from({ length: 200 }, () => generateSecret('').slice(1))
        .join('')
        .split(''),
    );
    expect(seen.size).toBe(62);
  });
});

describe('hashSecret', () => {
  it('is the SHA-256 hex digest of the secret', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const secret = generateSecret('sk_test_');
    expect(hashSecret(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic and differs between secrets', () => {
    expect(hashSecret('sk_test_one')).toBe(hashSecret('sk_test_one'));
    expect(hashSecret('sk_test_one')).not.toBe(hashSecret('sk_test_two'));
  });

  it('hashes non-ASCII text as UTF-8', () => {
    expect(hashSecret('é')).toBe(
      createHash('sha256')
        .update(Buffer.from([0xc3, 0xa9]))
        .digest('hex'),
    );
  });
});

describe('secretHint', () => {
  it('shows the prefix and the last four characters only', () => {
    const secret = 'sk_test_0123456789abcdefghijWXYZ';
    expect(secretHint(secret, 'sk_test_')).toBe('sk_test_…WXYZ');
  });

  it('reveals nothing of a generated secret beyond its prefix and last four characters', () => {
    const secret = generateSecret('sk_live_');
    const hint = secretHint(secret, 'sk_live_');
    expect(hint).toBe(`sk_live_…${secret.slice(-4)}`);
    expect(hint.length).toBe('sk_live_'.length + 1 + 4);
  });
});

describe('generateId', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the prefix, an underscore, a 9-character time part and 12 random base62 characters', () => {
    expect(generateId('key')).toMatch(/^key_[0-9a-z]{9}[0-9A-Za-z]{12}$/);
    expect(generateId('proj')).toMatch(/^proj_[0-9a-z]{9}[0-9A-Za-z]{12}$/);
  });

  it('never repeats, even within one millisecond', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1), toFake: ['Date'] });
    const ids = Array.from({ length: 5000 }, () => generateId('key'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts ids made later after ids made earlier', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1), toFake: ['Date'] });
    const earlier = generateId('key');
    vi.setSystemTime(Date.UTC(2026, 0, 1) + 1);
    const later = generateId('key');
    vi.setSystemTime(Date.UTC(2030, 5, 1));
    const muchLater = generateId('key');
    expect([muchLater, later, earlier].sort()).toEqual([earlier, later, muchLater]);
  });
});
