import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { buildApp } from '../app.js';
import { ApiKeyService } from './api-keys.js';
import { systemClock } from '../clock.js';
import { testConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { PartnerService } from '../partners/partner-service.js';
import { ProjectService } from '../projects/project-service.js';
import { MemoryRateLimitStore } from '../ratelimit/memory-store.js';
import { openDatabase, type Database } from '../store/database.js';
import { SQLITE_CHANGE_CHECK_MS } from '../store/credential-changes.js';
import { migrateToLatest } from '../store/migrate.js';
import { createRepositories } from '../store/repositories.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '@chartwright/testing/databases.js';

/**
 * The service caches key lookups. These tests change keys through a second, independent database
 * connection — what the CLI or another instance does — and check the service notices at once.
 */
describe('revocation made by another process', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  });

  async function serviceOn(database: Database): Promise<FastifyInstance> {
    const app = await buildApp(testConfig(), {
      database,
      clock: systemClock,
      logger: createLogger('silent'),
      rateLimitStore: new MemoryRateLimitStore(),
    });
    cleanups.push(() => app.close());
    return app;
  }

  async function issueKey(database: Database) {
    const repositories = createRepositories(database);
    const project = await new ProjectService(repositories, systemClock).create('Clinic');
    const keys = new ApiKeyService(repositories, systemClock, 3600);
    return { keys, issued: await keys.create({ projectId: project.id, environment: 'live' }) };
  }

  // A reading of SQLite's change counter serves requests for SQLITE_CHANGE_CHECK_MS; a request after
  // that must see a change another connection committed.
  const afterChangeCheck = () => new Promise((resolve) => setTimeout(resolve, SQLITE_CHANGE_CHECK_MS + 1));

  const list = (app: FastifyInstance, key: string) =>
    app.inject({ method: 'GET', url: '/api/v1/templates', headers: { authorization: `Bearer ${key}` } });

  /** The service's connection and a second one to the same SQLite file, as the CLI would open. */
  async function sharedSqliteFile(): Promise<{ service: Database; cli: Database }> {
    const directory = mkdtempSync(join(tmpdir(), 'cw-shared-'));
    const path = join(directory, 'shared.db');
    const service = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(service);
    const cli = openDatabase({ kind: 'sqlite', path });
    cleanups.push(async () => {
      await cli.close();
      await service.close();
      rmSync(directory, { recursive: true, force: true });
    });
    return { service, cli };
  }

  it('sees a revocation written to the same SQLite file by another connection', async () => {
    const { service, cli } = await sharedSqliteFile();
    const app = await serviceOn(service);
    const { keys, issued } = await issueKey(cli);
    expect((await list(app, issued.secret)).statusCode).toBe(200);
    expect((await list(app, issued.secret)).statusCode).toBe(200);
    await keys.revoke(issued.key.id);
    await afterChangeCheck();
    expect((await list(app, issued.secret)).statusCode).toBe(401);
  });

  it('sees a rotation written to the same SQLite file by another connection', async () => {
    const { service, cli } = await sharedSqliteFile();
    const app = await serviceOn(service);
    const { keys, issued } = await issueKey(cli);
    expect((await list(app, issued.secret)).statusCode).toBe(200);
    await keys.rotate(issued.key.id, { graceSeconds: 0 });
    await afterChangeCheck();
    expect((await list(app, issued.secret)).statusCode).toBe(401);
  });

  it('sees a partner revoked through another connection: the cached partner mints no more tokens', async () => {
    const { service, cli } = await sharedSqliteFile();
    const app = await serviceOn(service);
    const repositories = createRepositories(cli);
    const project = await new ProjectService(repositories, systemClock).create('Clinic');
    const partners = new PartnerService(repositories, systemClock, 0);
    const { partner, partnerKey } = await partners.create({
      projectId: project.id,
      environment: 'test',
      name: 'EMR',
      allowedOrigins: ['https://emr.example.com'],
    });
    const mint = async () =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/widget/token',
          headers: { 'x-partner-key': partnerKey },
          payload: { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' },
        })
      ).json<{ success: boolean; error?: { code: string } }>();
    expect((await mint()).success).toBe(true);
    expect((await mint()).success).toBe(true);
    await partners.revoke(partner.id);
    await afterChangeCheck();
    expect((await mint()).error?.code).toBe('partner_revoked');
  });

  describe.skipIf(TEST_DATABASE_URL === undefined)('on PostgreSQL', () => {
    it('sees a revocation made through another instance’s connection within moments', async () => {
      const shared: TestDatabase = await openTestDatabase('postgres');
      cleanups.push(() => shared.dispose());
      const schema = (
        await shared.database.db
          .selectNoFrom((eb) => eb.fn<string>('current_schema').as('schema'))
          .executeTakeFirstOrThrow()
      ).schema;
      const other = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL ?? '' }, { schema });
      cleanups.push(() => other.close());

      const app = await serviceOn(shared.database);
      const { keys, issued } = await issueKey(other);
      // The first requests open the change listener; once it is up, lookups are cached.
      let cachedOnce = false;
      for (let attempt = 0; attempt < 100 && !cachedOnce; attempt += 1) {
        expect((await list(app, issued.secret)).statusCode).toBe(200);
        cachedOnce = shared.database.credentialChanges.version() !== null;
        if (!cachedOnce) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(cachedOnce).toBe(true);
      expect((await list(app, issued.secret)).statusCode).toBe(200);

      await keys.revoke(issued.key.id);
      let status = 200;
      for (let attempt = 0; attempt < 100 && status === 200; attempt += 1) {
        status = (await list(app, issued.secret)).statusCode;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(status).toBe(401);
    });
  });
});
