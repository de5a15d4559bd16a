import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

import { calculateJwkThumbprint, createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWK } from 'jose';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { Repositories } from '../store/repositories.js';

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
  emrSessionId?: string;
}

export interface VerifiedWidgetToken extends WidgetTokenClaims {
  jti: string;
  iat: number;
  /** Seconds since the epoch. */
  exp: number;
  expired: boolean;
}

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: JWK;
}

async function toSigningKey(privateKey: KeyObject): Promise<SigningKey> {
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, privateKey, publicJwk: { ...publicJwk, kid, alg: ALGORITHM, use: 'sig' } };
}

/**
 * Signs and verifies widget session tokens with an Ed25519 key. The key comes from configuration,
 * or is generated on first start and kept in the database so every instance signs with the same
 * one. Public keys are published as a JWKS; tokens name their key in `kid`, so keys can rotate.
 */
const base64url = (text: string): string => Buffer.from(text).toString('base64url');

export class WidgetTokenSigner {
  #keys: SigningKey[];
  #keySet: ReturnType<typeof createLocalJWKSet>;
  #lastReload: number;
  /** The signing key's JWS protected header, encoded once: it is the same in every token. */
  readonly #header: string;

  private constructor(
    private readonly signing: SigningKey,
    keys: SigningKey[],
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly issuer: string,
    private readonly configured: SigningKey | null,
  ) {
    this.#keys = keys;
    this.#keySet = createLocalJWKSet(this.jwks());
    this.#lastReload = clock.now();
    this.#header = base64url(JSON.stringify({ alg: ALGORITHM, kid: signing.kid, typ: 'JWT' }));
  }

  static async open(
    repositories: Repositories,
    clock: Clock,
    options: { issuer: string; privateKeyPem: string | null },
  ): Promise<WidgetTokenSigner> {
    const configured =
      options.privateKeyPem === null ? null : await toSigningKey(createPrivateKey(options.privateKeyPem));
    let stored = await WidgetTokenSigner.loadStored(repositories);
    if (stored.length === 0 && configured === null) {
      const generated = await toSigningKey(generateKeyPairSync('ed25519').privateKey);
      await repositories.signingKeys.insertIfAbsent({
        kid: generated.kid,
        algorithm: ALGORITHM,
        private_jwk: JSON.stringify(generated.privateKey.export({ format: 'jwk' })),
        public_jwk: JSON.stringify(generated.publicJwk),
        created_at: clock.now(),
      });
      // Several instances starting at once may each have inserted one: all sign with the oldest.
      stored = await WidgetTokenSigner.loadStored(repositories);
    }
    const signing = configured ?? stored[0];
    if (signing === undefined) throw new Error('no widget signing key could be loaded');
    const keys = configured === null ? stored : [configured, ...stored.filter((key) => key.kid !== configured.kid)];
    return new WidgetTokenSigner(signing, keys, repositories, clock, options.issuer, configured);
  }

  private static async loadStored(repositories: Repositories): Promise<SigningKey[]> {
    const rows = await repositories.signingKeys.list();
    return Promise.all(
      rows.map(async (row) => {
        const key = await toSigningKey(createPrivateKey({ key: JSON.parse(row.private_jwk) as JWK, format: 'jwk' }));
        if (key.kid !== row.kid) throw new Error(`stored widget signing key ${row.kid} does not match its kid`);
        return key;
      }),
    );
  }

  /** The public keys, as served at /.well-known/jwks.json. */
  jwks(): JSONWebKeySet {
    return { keys: this.#keys.map((key) => key.publicJwk) };
  }

  /**
   * A compact JWS (RFC 7515) signed with Ed25519 by `node:crypto` on the key object loaded at start:
   * the same token jose's SignJWT makes, without its per-call key import and asynchronous WebCrypto
   * job, which were half the cost of minting a token.
   */
  sign(claims: WidgetTokenClaims, jti: string, expiresAt: number): string {
    const payload = {
      ...claims,
      iss: this.issuer,
      aud: WIDGET_TOKEN_AUDIENCE,
      iat: Math.floor(this.clock.now() / 1000),
      exp: Math.floor(expiresAt / 1000),
      jti,
    };
    const signingInput = `${this.#header}.${base64url(JSON.stringify(payload))}`;
    const signature = sign(null, Buffer.from(signingInput), this.signing.privateKey);
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
    const stored = await WidgetTokenSigner.loadStored(this.repositories);
    const configured = this.configured;
    this.#keys = configured === null ? stored : [configured, ...stored.filter((key) => key.kid !== configured.kid)];
    this.#keySet = createLocalJWKSet(this.jwks());
  }
}
