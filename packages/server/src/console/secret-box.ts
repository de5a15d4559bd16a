import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals secrets the service must keep and use again (an OpenID client secret, the kept answers to
 * Idempotency-Keys) with AES-256-GCM under a key outside the database, so a copy of the database
 * alone does not reveal them.
 * `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export class SecretBox {
  readonly #key: Buffer;

  /** `purpose` gives each use its own key from the one secret (the default is the client secrets'). */
  constructor(secret: string, purpose = 'console secret box') {
    this.#key = createHash('sha256').update(`chartwright ${purpose}\n${secret}`).digest();
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error('not a sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
