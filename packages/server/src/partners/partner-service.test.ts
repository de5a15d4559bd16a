import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { hashSecret } from '../auth/secrets.js';
import { ManualClock } from '../clock.js';
import { ProjectService } from '../projects/project-service.js';
import { createRepositories, type Repositories } from '../store/repositories.js';
import { openTestDatabase, TEST_DIALECTS, type TestDatabase } from '@chartwright/testing/databases.js';
import { DEFAULT_TOKEN_LIFETIME_SECONDS, PartnerService } from './partner-service.js';

const DEFAULT_GRACE_SECONDS = 3600;

describe.each(TEST_DIALECTS)('PartnerService on %s', (dialect) => {
  let database: TestDatabase;
  let repositories: Repositories;
  let clock: ManualClock;
  let partners: PartnerService;
  let projectId: string;

  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    repositories = createRepositories(database.database);
    clock = new ManualClock();
    partners = new PartnerService(repositories, clock, DEFAULT_GRACE_SECONDS);
    projectId = (await new ProjectService(repositories, clock).create('Partner clinic')).id;
  });
  afterEach(async () => {
    await database.dispose();
  });

  const create = (overrides: { allowedOrigins?: readonly string[]; tokenLifetimeSeconds?: number } = {}) =>
    partners.create({
      projectId,
      environment: 'test',
      name: 'Acme EMR',
      allowedOrigins: ['https://emr.example.com'],
      ...overrides,
    });

  const invalidBodyAt = (path: string) => ({
    code: 'invalid_body',
    details: expect.arrayContaining([expect.objectContaining({ path })]) as unknown,
  });

  describe('create', () => {
    it('keeps exact origins, each once', async () => {
      const { partner } = await create({
        allowedOrigins: [
          'https://emr.example.com',
          'https://emr.example.com',
          'https://other.example.com:8443',
          'https://10.1.2.3',
          'https://[2001:db8::1]:8443',
        ],
      });
      expect(partner.allowedOrigins).toEqual([
        'https://emr.example.com',
        'https://other.example.com:8443',
        'https://10.1.2.3',
        'https://[2001:db8::1]:8443',
      ]);
      const row = await repositories.partners.get(partner.id);
      expect(JSON.parse(row?.allowed_origins ?? 'null')).toEqual(partner.allowedOrigins);
    });

    it('allows plain http for localhost only', async () => {
      const local = ['http://localhost:3000', 'http://127.0.0.1:8081', 'http://[::1]:3000'];
      expect((await create({ allowedOrigins: local })).partner.allowedOrigins).toEqual(local);
      await expect(create({ allowedOrigins: ['http://emr.example.com'] })).rejects.toMatchObject(
        invalidBodyAt('allowedOrigins[0]'),
      );
    });

    it.each([
      ['a wildcard subdomain', 'https://*.example.com'],
      ['a wildcard host', 'https://*'],
      ['a wildcard port', 'https://emr.example.com:*'],
      ['a path', 'https://emr.example.com/app'],
      ['a trailing slash', 'https://emr.example.com/'],
      ['an upper-case host', 'https://EMR.example.com'],
      ['the default port', 'https://emr.example.com:443'],
      ['a query', 'https://emr.example.com/?x=1'],
      ['a fragment', 'https://emr.example.com/#top'],
      ['credentials', 'https://user@emr.example.com'],
      ['no scheme', 'emr.example.com'],
      ['another scheme', 'ftp://emr.example.com'],
      ['a CSP keyword', "'self'"],
      ['a source list', 'https://emr.example.com https://evil.example'],
      ['a semicolon', 'https://emr.example.com;script-src'],
      ['a unicode host', 'https://bücher.example'],
    ])('refuses an origin with %s, naming it', async (_name, origin) => {
      const refused = create({ allowedOrigins: ['https://emr.example.com', origin] });
      await expect(refused).rejects.toMatchObject(invalidBodyAt('allowedOrigins[1]'));
      await expect(refused).rejects.toThrow(JSON.stringify(origin));
      expect(await partners.list()).toEqual([]);
    });

    it('says what to write instead of an inexact origin', async () => {
      await expect(create({ allowedOrigins: ['https://EMR.example.com/'] })).rejects.toThrow(
        /e\.g\. https:\/\/emr\.example\.com$/,
      );
      await expect(create({ allowedOrigins: ['https://*.example.com'] })).rejects.toThrow(/wildcards are not allowed/);
    });

    it('replaces the allowed origins at once, checked as at creation', async () => {
      const { partner } = await create();
      const updated = await partners.setOrigins(partner.id, ['https://new-emr.example.com', 'http://localhost:3000']);
      expect(updated.allowedOrigins).toEqual(['https://new-emr.example.com', 'http://localhost:3000']);
      await expect(partners.setOrigins(partner.id, ['https://*.example.com'])).rejects.toMatchObject(
        invalidBodyAt('allowedOrigins[0]'),
      );
      await expect(partners.setOrigins(partner.id, [])).rejects.toMatchObject(invalidBodyAt('allowedOrigins'));
      await expect(partners.setOrigins('ptn_missing', ['https://emr.example.com'])).rejects.toMatchObject({
        code: 'partner_not_found',
      });
      expect((await partners.list())[0]?.allowedOrigins).toEqual(updated.allowedOrigins);
    });

    it('never hands out a stored origin that is not exact', async () => {
      const { partner } = await create();
      await repositories.partners.setAllowedOrigins(
        partner.id,
        JSON.stringify(['https://*.example.com', 'https://emr.example.com']),
      );
      expect((await partners.list())[0]?.allowedOrigins).toEqual(['https://emr.example.com']);
    });

    it('refuses an empty origin list', async () => {
      await expect(create({ allowedOrigins: [] })).rejects.toMatchObject(invalidBodyAt('allowedOrigins'));
      expect(await partners.list()).toEqual([]);
    });

    it('gives tokens a 24-hour lifetime by default and keeps lifetimes within 300 s to 7 days', async () => {
      expect(DEFAULT_TOKEN_LIFETIME_SECONDS).toBe(86_400);
      expect((await create()).partner.tokenLifetimeSeconds).toBe(86_400);
      expect((await create({ tokenLifetimeSeconds: 300 })).partner.tokenLifetimeSeconds).toBe(300);
      expect((await create({ tokenLifetimeSeconds: 604_800 })).partner.tokenLifetimeSeconds).toBe(604_800);
      for (const tokenLifetimeSeconds of [299, 604_801, 0, -1, 3600.5]) {
        await expect(create({ tokenLifetimeSeconds }), String(tokenLifetimeSeconds)).rejects.toMatchObject(
          invalidBodyAt('tokenLifetimeSeconds'),
        );
      }
    });

    it('refuses an unknown project', async () => {
      await expect(
        partners.create({
          projectId: 'prj_unknown',
          environment: 'live',
          name: 'Acme EMR',
          allowedOrigins: ['https://emr.example.com'],
        }),
      ).rejects.toMatchObject({ code: 'project_not_found' });
    });

    it('hands out <id>.<secret> once and stores only a hash of the secret', async () => {
      const { partner, partnerKey } = await create();
      expect(partner.id).toMatch(/^ptn_/);
      const [id, secret, ...rest] = partnerKey.split('.');
      expect(id).toBe(partner.id);
      expect(rest).toEqual([]);
      expect(secret).toMatch(/^[0-9A-Za-z]{40,}$/);
      const row = await repositories.partners.get(partner.id);
      expect(row?.secret_hash).toBe(hashSecret(secret ?? ''));
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain((secret ?? '').slice(0, 20));
      expect(JSON.stringify(partner)).not.toContain(secret);
      expect(partner.secretHint.endsWith((secret ?? '').slice(-4))).toBe(true);
    });
  });

  describe('authenticate', () => {
    it('refuses a missing header', async () => {
      await expect(partners.authenticate(undefined)).rejects.toMatchObject({ code: 'missing_partner_key' });
      await expect(partners.authenticate('  ')).rejects.toMatchObject({ code: 'missing_partner_key' });
    });

    it('refuses a malformed, unknown or wrong key alike', async () => {
      const { partner, partnerKey } = await create();
      const secret = partnerKey.slice(partner.id.length + 1);
      for (const header of [
        partner.id,
        `${partner.id}${secret}`,
        `.${secret}`,
        `ptn_unknown.${secret}`,
        `${partner.id}.wrong`,
        // The last character changed to one it is not (a random secret may end in any letter).
        `${partner.id}.${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`,
        `${partner.id}.`,
      ]) {
        await expect(partners.authenticate(header), header).rejects.toMatchObject({ code: 'invalid_partner_key' });
      }
    });

    it('accepts the right key', async () => {
      const { partner, partnerKey } = await create();
      await expect(partners.authenticate(partnerKey)).resolves.toMatchObject({ id: partner.id, project_id: projectId });
    });

    it('refuses the key of a revoked partner', async () => {
      const { partner, partnerKey } = await create();
      await partners.revoke(partner.id);
      await expect(partners.authenticate(partnerKey)).rejects.toMatchObject({ code: 'partner_revoked' });
    });
  });

  describe('rotateSecret', () => {
    it('issues a new secret at once and keeps the old one for the grace period only', async () => {
      const { partner, partnerKey: oldKey } = await create();
      const rotated = await partners.rotateSecret(partner.id, { graceSeconds: 600 });
      expect(rotated.partnerKey).not.toBe(oldKey);
      expect(rotated.partner.previousSecretExpiresAt).toBe(new Date(clock.now() + 600_000).toISOString());
      await expect(partners.authenticate(rotated.partnerKey)).resolves.toMatchObject({ id: partner.id });
      await expect(partners.authenticate(oldKey)).resolves.toMatchObject({ id: partner.id });

      clock.advance(600_000 - 1);
      await expect(partners.authenticate(oldKey)).resolves.toMatchObject({ id: partner.id });
      clock.advance(1);
      await expect(partners.authenticate(oldKey)).rejects.toMatchObject({ code: 'invalid_partner_key' });
      await expect(partners.authenticate(rotated.partnerKey)).resolves.toMatchObject({ id: partner.id });
      expect((await partners.list())[0]?.previousSecretExpiresAt).toBeNull();
    });

    it('uses the default grace period when none is given', async () => {
      const { partner, partnerKey: oldKey } = await create();
      await partners.rotateSecret(partner.id);
      clock.advance(DEFAULT_GRACE_SECONDS * 1000 - 1);
      await expect(partners.authenticate(oldKey)).resolves.toMatchObject({ id: partner.id });
      clock.advance(1);
      await expect(partners.authenticate(oldKey)).rejects.toMatchObject({ code: 'invalid_partner_key' });
    });

    it('refuses to rotate a revoked partner, or an unknown one', async () => {
      const { partner } = await create();
      await partners.revoke(partner.id);
      await expect(partners.rotateSecret(partner.id)).rejects.toMatchObject({ code: 'partner_not_active' });
      await expect(partners.rotateSecret('ptn_unknown')).rejects.toMatchObject({ code: 'partner_not_found' });
    });

    it('refuses a grace period out of range', async () => {
      const { partner } = await create();
      await expect(partners.rotateSecret(partner.id, { graceSeconds: -1 })).rejects.toMatchObject(
        invalidBodyAt('graceSeconds'),
      );
    });
  });

  describe('list and revoke', () => {
    it('lists partners by project, oldest first, without secrets', async () => {
      const first = await create();
      clock.advance(1000);
      const second = await partners.create({
        projectId,
        environment: 'live',
        name: '  Second EMR ',
        allowedOrigins: ['https://second.example.com'],
        tokenLifetimeSeconds: 3600,
      });
      const otherProject = (await new ProjectService(repositories, clock).create('Other clinic')).id;
      await partners.create({
        projectId: otherProject,
        environment: 'test',
        name: 'Elsewhere',
        allowedOrigins: ['https://elsewhere.example.com'],
      });

      const listed = await partners.list({ projectId });
      expect(listed).toEqual([first.partner, second.partner]);
      expect(listed[1]).toMatchObject({
        name: 'Second EMR',
        environment: 'live',
        status: 'active',
        revokedAt: null,
        tokenLifetimeSeconds: 3600,
        allowedOrigins: ['https://second.example.com'],
      });
      expect(await partners.list()).toHaveLength(3);
      expect(JSON.stringify(listed)).not.toContain(first.partnerKey.split('.')[1]);
    });

    it('revokes a partner', async () => {
      const { partner } = await create();
      clock.advance(5000);
      const revoked = await partners.revoke(partner.id);
      expect(revoked).toMatchObject({
        id: partner.id,
        status: 'revoked',
        revokedAt: new Date(clock.now()).toISOString(),
      });
      expect((await partners.list({ projectId }))[0]?.status).toBe('revoked');
      await expect(partners.revoke('ptn_unknown')).rejects.toMatchObject({ code: 'partner_not_found' });
    });
  });
});
