import { createHook } from 'node:async_hooks';
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { buildApp } from '../app.js';
import type { Config } from '../config/config.js';
import { createLogger } from '../logger.js';
import { MemoryRateLimitStore } from '../ratelimit/memory-store.js';
import { TEST_DIALECTS, openTestDatabase } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { ManualClock } from '../clock.js';
import { MemorySecrets } from '../secrets/key-file.js';
import { createRepositories } from '../store/repositories.js';
import { SIGNING_KEY_OVERLAP_MS, WIDGET_TOKEN_AUDIENCE, WidgetTokenSigner } from './signer.js';

async function jwksOf(app: FastifyInstance): Promise<JSONWebKeySet> {
  const response = await app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  expect(response.statusCode).toBe(200);
  return response.json<JSONWebKeySet>();
}

const kidsOf = (jwks: JSONWebKeySet) => jwks.keys.map((key) => key.kid);

const sessionStatus = async (app: FastifyInstance, token: string) =>
  (await app.inject({ method: 'GET', url: '/api/widget/session', headers: { authorization: `Bearer ${token}` } }))
    .statusCode;

async function mintOn(app: FastifyInstance, partnerKey: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/widget/token',
    headers: { 'x-partner-key': partnerKey },
    payload: { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { token: string } }>().data.token;
}

/** An Ed25519 key as an operator would configure it, and its RFC 7638 thumbprint. */
async function configuredKey(): Promise<{ pem: string; kid: string }> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { pem, kid: await calculateJwkThumbprint(publicKey.export({ format: 'jwk' })) };
}

describe.each(TEST_DIALECTS)('widget token signing keys on %s', (dialect) => {
  let h: Harness;
  let partnerKey: string;
  const others: FastifyInstance[] = [];
  beforeEach(async () => {
    // The zero-configuration default: a key generated into the key file.
    h = await createHarness({ dialect, config: { widgetJwtPrivateKey: null } });
    ({ partnerKey } = await h.createPartner());
  });
  afterEach(async () => {
    for (const app of others.splice(0)) await app.close();
    await h.close();
  });

  /** Another instance of the service on the harness's database. */
  async function secondInstance(config: Partial<Config> = {}): Promise<FastifyInstance> {
    const app = await buildApp(
      { ...h.config, ...config },
      {
        database: h.database,
        clock: h.clock,
        logger: createLogger('silent'),
        rateLimitStore: new MemoryRateLimitStore(),
        // Instances of one deployment share the key file.
        secrets: h.secrets,
      },
    );
    others.push(app);
    await app.ready();
    return app;
  }

  const verifyWith = async (jwks: JSONWebKeySet, token: string) =>
    jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: h.config.widgetBaseUrl,
      audience: WIDGET_TOKEN_AUDIENCE,
      currentDate: new Date(h.clock.now()),
    });

  /** The private key the harness's instance generated into its key file. */
  const serviceKey = () =>
    createPrivateKey(
      h.secrets.getOrCreate('widget_signing_key', () => {
        throw new Error('no signing key in the key file');
      }),
    );

  it('keeps the key generated on first start in the key file, so every instance signs and verifies alike', async () => {
    const stored = await h.repositories.signingKeys.list();
    expect(stored).toHaveLength(1);
    // The database holds only the public half.
    expect(stored[0]?.private_jwk).toBe('');
    expect(JSON.parse(stored[0]?.public_jwk ?? '{}')).not.toHaveProperty('d');
    expect(await calculateJwkThumbprint(createPublicKey(serviceKey()).export({ format: 'jwk' }))).toBe(stored[0]?.kid);
    const first = await jwksOf(h.app);
    expect(kidsOf(first)).toEqual([stored[0]?.kid]);
    expect(first.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(first.keys[0]).not.toHaveProperty('d');

    const token = await mintOn(h.app, partnerKey);
    const second = await secondInstance();
    expect(await jwksOf(second)).toEqual(first);
    expect(await h.repositories.signingKeys.list()).toHaveLength(1);

    // Each instance accepts the other's tokens.
    expect(await sessionStatus(second, token)).toBe(200);
    await expect(verifyWith(await jwksOf(second), token)).resolves.toBeDefined();
    const fromSecond = await mintOn(second, partnerKey);
    expect(decodeProtectedHeader(fromSecond).kid).toBe(decodeProtectedHeader(token).kid);
    expect(await sessionStatus(h.app, fromSecond)).toBe(200);
  });

  it('signs tokens that JOSE verifiers accept with the published key, and still honours jose-signed ones', async () => {
    const jwks = await jwksOf(h.app);
    const token = await mintOn(h.app, partnerKey);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'EdDSA',
      kid: jwks.keys[0]?.kid,
      typ: 'JWT',
    });
    await expect(verifyWith(jwks, token)).resolves.toMatchObject({ payload: { aud: WIDGET_TOKEN_AUDIENCE } });
    // Minted without an emrSessionId, the token names none (not even as null).
    expect(Object.keys(decodeJwt(token))).toEqual(['sub', 'partner', 'emrUserId', 'iss', 'aud', 'iat', 'exp', 'jti']);
    // The bare Ed25519 check a partner's own verifier makes with the JWKS key.
    const publicKey = createPublicKey({ key: jwks.keys[0] as JWK & { kty: 'OKP' }, format: 'jwk' });
    expect(verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(
      true,
    );

    // A token jose signed, as this service did before, with the same key and claims.
    const stored = (await h.repositories.signingKeys.list())[0];
    if (stored === undefined) throw new Error('no published signing key');
    const { sub, iss, aud, iat, exp, jti, ...custom } = decodeJwt(token);
    const joseSigned = await new SignJWT(custom)
      .setProtectedHeader({ alg: 'EdDSA', kid: stored.kid, typ: 'JWT' })
      .setSubject(sub ?? '')
      .setIssuer(iss ?? '')
      .setAudience(aud ?? '')
      .setIssuedAt(iat)
      .setExpirationTime(exp ?? 0)
      .setJti(jti ?? '')
      .sign(serviceKey());
    expect(decodeJwt(joseSigned)).toEqual(decodeJwt(token));
    expect(await sessionStatus(h.app, joseSigned)).toBe(200);
    expect(await sessionStatus(h.app, token)).toBe(200);
  });

  // Node makes a SIGNREQUEST resource for every signature, and calls back into it (the `before`
  // hook) only for one it handed to the thread pool; one made on the event loop has no callback.
  it('signs each token on the thread pool, not on the event loop', async () => {
    const signatures = new Set<number>();
    let calledBack = 0;
    const hook = createHook({
      init: (id, type) => {
        if (type === 'SIGNREQUEST') signatures.add(id);
      },
      before: (id) => {
        if (signatures.has(id)) calledBack += 1;
      },
    }).enable();
    let token: string;
    try {
      token = await mintOn(h.app, partnerKey);
    } finally {
      hook.disable();
    }
    expect([signatures.size, calledBack]).toEqual([1, 1]);
    await expect(verifyWith(await jwksOf(h.app), token)).resolves.toBeDefined();
  });

  it('signs with a configured key and still publishes and honours the generated one for the overlap', async () => {
    const storedKid = (await h.repositories.signingKeys.list())[0]?.kid;
    const oldToken = await mintOn(h.app, partnerKey);
    const { pem, kid } = await configuredKey();
    h.clock.advance(1000);
    const configured = await secondInstance({ widgetJwtPrivateKey: pem });

    const jwks = await jwksOf(configured);
    expect(kidsOf(jwks)).toEqual([kid, storedKid]);
    const token = await mintOn(configured, partnerKey);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'EdDSA', kid });
    await expect(verifyWith(jwks, token)).resolves.toMatchObject({ protectedHeader: { kid } });
    expect(await sessionStatus(configured, token)).toBe(200);

    // Tokens signed with the stored key before the change keep working.
    await expect(verifyWith(jwks, oldToken)).resolves.toMatchObject({ protectedHeader: { kid: storedKid } });
    expect(await sessionStatus(configured, oldToken)).toBe(200);
    // The first instance, still signing with the generated key, accepts the configured key's tokens
    // too, once it may look for keys it does not know again.
    h.clock.advance(10_000);
    expect(await sessionStatus(h.app, token)).toBe(200);
    // Only the configured key's public half is written to the database.
    const rows = await h.repositories.signingKeys.list();
    expect(rows.map((row) => row.kid)).toEqual([storedKid, kid]);
    expect(rows.map((row) => row.private_jwk)).toEqual(['', '']);
  });

  it('generates no key of its own when one is configured from the start', async () => {
    const { pem, kid } = await configuredKey();
    const fresh = await createHarness({ dialect, config: { widgetJwtPrivateKey: pem } });
    try {
      expect(kidsOf(await jwksOf(fresh.app))).toEqual([kid]);
      expect((await fresh.repositories.signingKeys.list()).map((row) => [row.kid, row.private_jwk])).toEqual([
        [kid, ''],
      ]);
      expect(fresh.secrets.getOrCreate('widget_signing_key', () => 'none')).toBe('none');
      const { partnerKey: freshKey } = await fresh.createPartner();
      const token = await mintOn(fresh.app, freshKey);
      expect(decodeProtectedHeader(token).kid).toBe(kid);
      expect(await sessionStatus(fresh.app, token)).toBe(200);
    } finally {
      await fresh.close();
    }
  });
  it('rotates a generated key: both published during the overlap, the old one refused after it', async () => {
    const oldKid = (await h.repositories.signingKeys.list())[0]?.kid;
    const oldToken = await mintOn(h.app, partnerKey);
    // A token the old key signs later, still valid when the overlap ends (as a leaked key could).
    const late = await resignWithExpiry(oldToken, serviceKey(), 9 * 86_400);
    const services = createRepositories(h.database);
    h.clock.advance(1000);
    const rotated = await WidgetTokenSigner.rotateGeneratedKey(services, {
      file: h.secrets,
      database: services.serviceSecrets,
      clock: h.clock,
    });
    expect(rotated.kid).not.toBe(oldKid);
    expect(rotated.previousKeysPublishedUntil).toBe(h.clock.now() + SIGNING_KEY_OVERLAP_MS);

    // An instance restarted with the key file signs with the new key; the one still running with the
    // old key and the restarted one accept each other's tokens.
    const restarted = await secondInstance();
    expect(kidsOf(await jwksOf(restarted))).toEqual([rotated.kid, oldKid]);
    const newToken = await mintOn(restarted, partnerKey);
    expect(decodeProtectedHeader(newToken).kid).toBe(rotated.kid);
    expect(await sessionStatus(restarted, oldToken)).toBe(200);
    h.clock.advance(11_000);
    expect(await sessionStatus(h.app, newToken)).toBe(200);
    expect(await sessionStatus(restarted, late)).toBe(200);

    // Past the overlap the old key is no longer published, and what it signs is refused.
    h.clock.advance(SIGNING_KEY_OVERLAP_MS);
    const later = await secondInstance();
    expect(kidsOf(await jwksOf(later))).toEqual([rotated.kid]);
    expect(await sessionStatus(later, late)).toBe(401);
    expect(await sessionStatus(later, await mintOn(later, partnerKey))).toBe(200);
  });

  it('refuses to start on a key file that holds another signing key than the other instances', async () => {
    await expect(
      buildApp(h.config, {
        database: h.database,
        clock: h.clock,
        logger: createLogger('silent'),
        rateLimitStore: new MemoryRateLimitStore(),
        secrets: new MemorySecrets(),
      }),
    ).rejects.toThrow(/widget_signing_key secret differs.*WIDGET_JWT_PRIVATE_KEY/);
  });
});

describe.each(TEST_DIALECTS)('upgrading over a signing key an earlier version kept in the database (%s)', (dialect) => {
  it('moves it to the key file, leaves no private key in the database, and honours the tokens it signed', async () => {
    const database = await openTestDatabase(dialect);
    const clock = new ManualClock();
    // What an earlier version wrote on first start: the whole key pair in one row.
    const legacy = generateKeyPairSync('ed25519').privateKey;
    const publicJwk = createPublicKey(legacy).export({ format: 'jwk' });
    const kid = await calculateJwkThumbprint(publicJwk);
    const repositories = createRepositories(database.database);
    await repositories.signingKeys.insertIfAbsent({
      kid,
      algorithm: 'EdDSA',
      private_jwk: JSON.stringify(legacy.export({ format: 'jwk' })),
      public_jwk: JSON.stringify({ ...publicJwk, kid, alg: 'EdDSA', use: 'sig' }),
      created_at: clock.now(),
    });
    const h = await createHarness({ database: database.database, config: { widgetJwtPrivateKey: null } });
    try {
      const { partnerKey } = await h.createPartner();
      const token = await mintOn(h.app, partnerKey);
      expect(decodeProtectedHeader(token).kid).toBe(kid);
      // A token the earlier version issued, signed with the key from the row.
      const issuedBefore = await resignWithExpiry(token, legacy, 3600);
      expect(await sessionStatus(h.app, issuedBefore)).toBe(200);

      const rows = await h.repositories.signingKeys.list();
      expect(rows.map((row) => [row.kid, row.private_jwk])).toEqual([[kid, '']]);
      const moved = createPrivateKey(h.secrets.getOrCreate('widget_signing_key', () => 'missing'));
      expect(moved.export({ format: 'jwk' })).toEqual(legacy.export({ format: 'jwk' }));
    } finally {
      await h.close();
      await database.dispose();
    }
  });
});

/** The claims of a genuine token, signed again with `key`, expiring `seconds` after issue. */
async function resignWithExpiry(genuine: string, key: KeyObject, seconds: number): Promise<string> {
  const { sub, iss, aud, iat, jti, ...custom } = decodeJwt(genuine);
  const publicJwk = createPublicKey(key).export({ format: 'jwk' });
  return new SignJWT(custom)
    .setProtectedHeader({ alg: 'EdDSA', kid: await calculateJwkThumbprint(publicJwk), typ: 'JWT' })
    .setSubject(sub ?? '')
    .setIssuer(iss ?? '')
    .setAudience(aud ?? '')
    .setIssuedAt(iat)
    .setExpirationTime((iat ?? 0) + seconds)
    .setJti(jti ?? '')
    .sign(key);
}
