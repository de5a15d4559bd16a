import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';

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
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { WIDGET_TOKEN_AUDIENCE } from './signer.js';

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
    h = await createHarness({ dialect });
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

  it('keeps the key generated on first start, so every instance signs and verifies alike', async () => {
    const stored = await h.repositories.signingKeys.list();
    expect(stored).toHaveLength(1);
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
    // The bare Ed25519 check a partner's own verifier makes with the JWKS key.
    const publicKey = createPublicKey({ key: jwks.keys[0] as JWK & { kty: 'OKP' }, format: 'jwk' });
    expect(verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(
      true,
    );

    // A token jose signed, as this service did before, with the same stored key and claims.
    const stored = (await h.repositories.signingKeys.list())[0];
    if (stored === undefined) throw new Error('no stored signing key');
    const { sub, iss, aud, iat, exp, jti, ...custom } = decodeJwt(token);
    const joseSigned = await new SignJWT(custom)
      .setProtectedHeader({ alg: 'EdDSA', kid: stored.kid, typ: 'JWT' })
      .setSubject(sub ?? '')
      .setIssuer(iss ?? '')
      .setAudience(aud ?? '')
      .setIssuedAt(iat)
      .setExpirationTime(exp ?? 0)
      .setJti(jti ?? '')
      .sign(createPrivateKey({ key: JSON.parse(stored.private_jwk) as JWK & { kty: 'OKP' }, format: 'jwk' }));
    expect(decodeJwt(joseSigned)).toEqual(decodeJwt(token));
    expect(await sessionStatus(h.app, joseSigned)).toBe(200);
    expect(await sessionStatus(h.app, token)).toBe(200);
  });

  it('signs with a configured key and still publishes and honours the stored one', async () => {
    const storedKid = (await h.repositories.signingKeys.list())[0]?.kid;
    const oldToken = await mintOn(h.app, partnerKey);
    const { pem, kid } = await configuredKey();
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
    // The configured key is never written to the database.
    expect((await h.repositories.signingKeys.list()).map((row) => row.kid)).toEqual([storedKid]);
  });

  it('generates no key of its own when one is configured from the start', async () => {
    const { pem, kid } = await configuredKey();
    const fresh = await createHarness({ dialect, config: { widgetJwtPrivateKey: pem } });
    try {
      expect(kidsOf(await jwksOf(fresh.app))).toEqual([kid]);
      expect(await fresh.repositories.signingKeys.list()).toEqual([]);
      const { partnerKey: freshKey } = await fresh.createPartner();
      const token = await mintOn(fresh.app, freshKey);
      expect(decodeProtectedHeader(token).kid).toBe(kid);
      expect(await sessionStatus(fresh.app, token)).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
