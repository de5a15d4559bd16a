import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

import { calculateJwkThumbprint, createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWK } from 'jose';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import {
  replaceSharedSecret,
  sharedSecret,
  type LegacySecret,
  type SharedSecretStores,
} from '../secrets/shared-secret.js';
import type { Repositories } from '../store/repositories.js';
import { MAX_TOKEN_LIFETIME_SECONDS } from './partner-service.js';

const ALGORITHM = 'EdDSA';
export const WIDGET_TOKEN_AUDIENCE = 'chartwright-widget';
// A token with an unknown kid may be signed by a key another instance just created; look again,
// but not more often than this, so forged kids cannot turn every request into a database read.
const RELOAD_INTERVAL_MS = 10_000;

/** The claims of a widget session token, beyond iss/aud/iat/exp/jti. */
export interface WidgetTokenClaims {
  /** The clinician. */
  sub: string;
  partner: string;
  emrUserId: string;
  /** Left out of the token when undefined. */
  emrSessionId?: string | undefined;
}

export interface VerifiedWidgetToken extends WidgetTokenClaims {
  jti: string;
  iat: number;
  /** Seconds since the epoch. */
  exp: number;
  expired: boolean;
}

interface VerificationKey {
  kid: string;
  publicJwk: JWK;
}

interface SigningKey extends VerificationKey {
  privateKey: KeyObject;
}

/** The signing key's name in the key file, and the variable that configures it instead. */
const SIGNING_KEY_SECRET = 'widget_signing_key';
const SIGNING_KEY_VARIABLE = 'WIDGET_JWT_PRIVATE_KEY';
/**
 * How long a replaced key stays in the JWKS: the longest a widget token can live, so every token it
 * signed expires before verifiers drop it.
 */
export const SIGNING_KEY_OVERLAP_MS = MAX_TOKEN_LIFETIME_SECONDS * 1000;

async function toSigningKey(privateKey: KeyObject): Promise<SigningKey> {
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, privateKey, publicJwk: { ...publicJwk, kid, alg: ALGORITHM, use: 'sig' } };
}

const newPrivateKeyPem = () =>
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/**
 * The private key earlier versions generated into `widget_signing_keys` (they signed with the
 * oldest row's), as the PEM the key file keeps; erasing it blanks every row's private half.
 */
function legacyPrivateKey(repositories: Repositories): LegacySecret {
  return {
    read: async () => {
      const row = (await repositories.signingKeys.list()).find((stored) => stored.private_jwk !== '');
      if (row === undefined) return undefined;
      const key = createPrivateKey({ key: JSON.parse(row.private_jwk) as JWK, format: 'jwk' });
      return key.export({ type: 'pkcs8', format: 'pem' }).toString();
    },
    erase: () => repositories.signingKeys.erasePrivateKeys(),
  };
}

/** Records a signing key's public half, so every instance publishes it and accepts its tokens. */
async function publish(repositories: Repositories, key: SigningKey, now: number): Promise<void> {
  await repositories.signingKeys.insertIfAbsent({
    kid: key.kid,
    algorithm: ALGORITHM,
    private_jwk: '',
    public_jwk: JSON.stringify(key.publicJwk),
    created_at: now,
  });
}

/**
 * The keys still published, newest first: every key since the newest one that replaced its
 * predecessor more than the overlap ago. A key that leaked stops verifying once its replacement
 * has been published that long.
 */
async function publishedKeys(repositories: Repositories, now: number): Promise<VerificationKey[]> {
  const rows = await repositories.signingKeys.list();
  let first = 0;
  rows.forEach((row, index) => {
    if (row.created_at <= now - SIGNING_KEY_OVERLAP_MS) first = index;
  });
  return Promise.all(
    rows
      .slice(first)
      .reverse()
      .map(async (row) => {
        const publicJwk = JSON.parse(row.public_jwk) as JWK;
        const { kid: _kid, alg: _alg, use: _use, ...bare } = publicJwk;
        if ((await calculateJwkThumbprint(bare)) !== row.kid) {
          throw new Error(`stored widget signing key ${row.kid} does not match its kid`);
        }
        return { kid: row.kid, publicJwk };
      }),
  );
}

const base64url = (text: string): string => Buffer.from(text).toString('base64url');

/**
 * An Ed25519 signature made on libuv's thread pool, not on the event loop: the signature is most of
 * a token's CPU (20 µs of OpenSSL on the AMD EPYC bench machine, 72 µs on an Intel one), and in
 * the pool it neither delays other requests nor limits token minting to the event loop's one core.
 */
const signInPool = (message: Buffer, key: KeyObject): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    sign(null, message, key, (error, signature) => {
      if (error === null) resolve(signature);
      else reject(error);
    });
  });

/**
 * Signs and verifies widget session tokens with an Ed25519 key. The private key comes from
 * configuration or from the key file (generated there on first start), never from the database,
 * which holds patient data: the database keeps the public keys every instance publishes as a JWKS.
 * Tokens name their key in `kid`, so keys can rotate with both published during the overlap.
 */
export class WidgetTokenSigner {
  #keys: VerificationKey[];
  #keySet: ReturnType<typeof createLocalJWKSet>;
  #lastReload: number;
  /** The signing key's JWS protected header, encoded once: it is the same in every token. */
  readonly #header: string;

  private constructor(
    private readonly signing: SigningKey,
    keys: VerificationKey[],
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly issuer: string,
  ) {
    this.#keys = WidgetTokenSigner.withSigningKey(signing, keys);
    this.#keySet = createLocalJWKSet(this.jwks());
    this.#lastReload = clock.now();
    this.#header = base64url(JSON.stringify({ alg: ALGORITHM, kid: signing.kid, typ: 'JWT' }));
  }

  static async open(
    repositories: Repositories,
    secrets: SharedSecretStores,
    options: { issuer: string; privateKeyPem: string | null },
  ): Promise<WidgetTokenSigner> {
    const pem = await sharedSecret(
      {
        name: SIGNING_KEY_SECRET,
        variable: SIGNING_KEY_VARIABLE,
        configured: options.privateKeyPem,
        generate: newPrivateKeyPem,
        legacy: legacyPrivateKey(repositories),
      },
      secrets,
    );
    const signing = await toSigningKey(createPrivateKey(pem));
    const now = secrets.clock.now();
    await publish(repositories, signing, now);
    const keys = await publishedKeys(repositories, now);
    return new WidgetTokenSigner(signing, keys, repositories, secrets.clock, options.issuer);
  }

  /**
   * Replaces the generated signing key in the key file and publishes the new one at once. Running
   * instances go on signing with the old key until they restart; it stays published for the overlap.
   */
  static async rotateGeneratedKey(
    repositories: Repositories,
    secrets: SharedSecretStores,
  ): Promise<{ kid: string; previousKeysPublishedUntil: number }> {
    const key = await toSigningKey(createPrivateKey(newPrivateKeyPem()));
    const now = secrets.clock.now();
    await publish(repositories, key, now);
    await replaceSharedSecret(
      SIGNING_KEY_SECRET,
      key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      secrets,
    );
    return { kid: key.kid, previousKeysPublishedUntil: now + SIGNING_KEY_OVERLAP_MS };
  }

  /** An instance always accepts what it signs, even with a key the others have stopped publishing. */
  private static withSigningKey(signing: SigningKey, keys: VerificationKey[]): VerificationKey[] {
    return keys.some((key) => key.kid === signing.kid) ? keys : [signing, ...keys];
  }

  /** The public keys, as served at /.well-known/jwks.json. */
  jwks(): JSONWebKeySet {
    return { keys: this.#keys.map((key) => key.publicJwk) };
  }

  /**
   * A compact JWS (RFC 7515) signed with Ed25519 on the key loaded at start, in the thread pool: the
   * same token jose's SignJWT makes, without its per-call key import and WebCrypto job.
   */
  async sign(claims: WidgetTokenClaims, jti: string, expiresAt: number): Promise<string> {
    // Written out rather than spread: on Node 20 each property added after a spread costs a
    // runtime call (3 µs for these five), and this runs for every token. An absent emrSessionId
    // stays absent: JSON leaves undefined out.
    const payload = {
      sub: claims.sub,
      partner: claims.partner,
      emrUserId: claims.emrUserId,
      emrSessionId: claims.emrSessionId,
      iss: this.issuer,
      aud: WIDGET_TOKEN_AUDIENCE,
      iat: Math.floor(this.clock.now() / 1000),
      exp: Math.floor(expiresAt / 1000),
      jti,
    };
    const signingInput = `${this.#header}.${base64url(JSON.stringify(payload))}`;
    const signature = await signInPool(Buffer.from(signingInput), this.signing.privateKey);
    return `${signingInput}.${signature.toString('base64url')}`;
  }

  /**
   * Verifies signature, issuer and audience. An expired token is returned with `expired: true`
   * rather than refused, because the widget page still needs its partner to let the host frame it
   * and hear TOKEN_EXPIRED; every API refuses expired tokens itself.
   */
  async verify(token: string): Promise<VerifiedWidgetToken> {
    const invalid = () => new AppError('invalid_widget_token', 'The widget token is not valid.');
    try {
      return await this.verifyOnce(token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey && this.clock.now() - this.#lastReload >= RELOAD_INTERVAL_MS) {
        await this.reload();
        return this.verifyOnce(token).catch(() => {
          throw invalid();
        });
      }
      if (error instanceof AppError) throw error;
      throw invalid();
    }
  }

  private async verifyOnce(token: string): Promise<VerifiedWidgetToken> {
    let payload: Record<string, unknown>;
    let expired = false;
    try {
      ({ payload } = await jwtVerify(token, this.#keySet, {
        issuer: this.issuer,
        audience: WIDGET_TOKEN_AUDIENCE,
        algorithms: [ALGORITHM],
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      }));
    } catch (error) {
      // jose checks the signature before the claims, so an expired token here is a genuine one.
      if (!(error instanceof errors.JWTExpired)) throw error;
      payload = error.payload;
      expired = true;
    }
    const { sub, partner, emrUserId, emrSessionId, jti, iat, exp } = payload;
    if (
      typeof sub !== 'string' ||
      typeof partner !== 'string' ||
      typeof emrUserId !== 'string' ||
      typeof jti !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      (emrSessionId !== undefined && typeof emrSessionId !== 'string')
    ) {
      throw new AppError('invalid_widget_token', 'The widget token is not valid.');
    }
    return {
      sub,
      partner,
      emrUserId,
      ...(emrSessionId === undefined ? {} : { emrSessionId }),
      jti,
      iat,
      exp,
      expired,
    };
  }

  private async reload(): Promise<void> {
    this.#lastReload = this.clock.now();
    const keys = await publishedKeys(this.repositories, this.#lastReload);
    this.#keys = WidgetTokenSigner.withSigningKey(this.signing, keys);
    this.#keySet = createLocalJWKSet(this.jwks());
  }
}
