import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  TEST_DATABASE_URL,
  TEST_DIALECTS,
  openEmptyTestDatabase,
  openTestDatabase,
  type TestDatabase,
} from '@chartwright/testing/databases.js';
import type { ApiKeyRow } from './api-keys.js';
import { migrateToLatest } from './migrate.js';
import { MIGRATION_NAMES } from './migrations/index.js';
import type { ProjectRow } from './projects.js';
import type { RealtimeTokenRow } from './realtime-tokens.js';
import { createRepositories, type Repositories } from './repositories.js';

/** 2026-01-01T00:00:00Z: larger than 2^31, so it proves bigint columns come back as exact numbers. */
const T0 = 1767225600000;
const MINUTE = 60_000;

function project(id: string, createdAt = T0, name = `Project ${id}`): ProjectRow {
  return { id, name, created_at: createdAt, organisation_id: 'org_a' };
}

function apiKey(id: string, overrides: Partial<ApiKeyRow> = {}): ApiKeyRow {
  return {
    id,
    project_id: 'proj_a',
    environment: 'test',
    name: 'default',
    secret_hash: `hash_${id}`,
    hint: `sk_test_…${id.slice(-4)}`,
    created_at: T0,
    expires_at: null,
    revoked_at: null,
    replaced_by: null,
    created_by_kind: 'console_member',
    created_by_id: 'mem_a',
    created_by_label: 'owner@clinic.example',
    last_used_at: null,
    ...overrides,
  };
}

function token(id: string, overrides: Partial<RealtimeTokenRow> = {}): RealtimeTokenRow {
  return {
    id,
    secret_hash: `rt_hash_${id}`,
    project_id: 'proj_a',
    environment: 'test',
    api_key_id: 'key_1',
    partner_id: null,
    encounter_id: null,
    created_at: T0,
    expires_at: T0 + 10 * MINUTE,
    ...overrides,
  };
}

describe.each(TEST_DIALECTS)('repositories on %s', (dialect) => {
  let testDb: TestDatabase;
  let repos: Repositories;

  beforeEach(async () => {
    testDb = await openTestDatabase(dialect);
    repos = createRepositories(testDb.database);
  });

  afterEach(async () => {
    await testDb.dispose();
  });

  describe('ProjectsRepository', () => {
    it('inserts and gets a project with its fields intact', async () => {
      await repos.projects.insert(project('proj_a', T0, 'Clinic North'));
      expect(await repos.projects.get('proj_a')).toEqual({
        id: 'proj_a',
        name: 'Clinic North',
        created_at: T0,
        organisation_id: 'org_a',
      });
      expect(await repos.projects.get('proj_missing')).toBeUndefined();
    });

    it('lists by creation time, then id, whatever the insertion order', async () => {
      await repos.projects.insert(project('proj_c', T0 + 2));
      await repos.projects.insert(project('proj_b', T0 + 1));
      await repos.projects.insert(project('proj_z', T0));
      await repos.projects.insert(project('proj_a', T0));
      const ids = (await repos.projects.list()).map((row) => row.id);
      expect(ids).toEqual(['proj_a', 'proj_z', 'proj_b', 'proj_c']);
    });

    it('counts projects as a number', async () => {
      expect(await repos.projects.count()).toBe(0);
      await repos.projects.insert(project('proj_a'));
      await repos.projects.insert(project('proj_b'));
      const count = await repos.projects.count();
      expect(count).toBe(2);
      expect(typeof count).toBe('number');
    });

    it('refuses a duplicate id', async () => {
      await repos.projects.insert(project('proj_a'));
      await expect(repos.projects.insert(project('proj_a'))).rejects.toThrow();
    });
  });

  describe('timestamps', () => {
    it('round-trip as JS numbers of epoch milliseconds', async () => {
      await repos.projects.insert(project('proj_a', T0));
      await repos.apiKeys.insert(
        apiKey('key_1', {
          created_at: T0,
          expires_at: T0 + MINUTE,
          revoked_at: T0 + 2 * MINUTE,
        }),
      );
      await repos.realtimeTokens.insert(token('rt_1', { created_at: T0 + 3, expires_at: T0 + 4 }));

      const stored = await repos.projects.get('proj_a');
      expect(stored?.created_at).toBe(1767225600000);
      expect(typeof stored?.created_at).toBe('number');

      const key = await repos.apiKeys.get('key_1');
      expect(key).toMatchObject({
        created_at: T0,
        expires_at: T0 + MINUTE,
        revoked_at: T0 + 2 * MINUTE,
      });
      for (const value of [key?.created_at, key?.expires_at, key?.revoked_at]) expect(typeof value).toBe('number');

      const found = await repos.realtimeTokens.findBySecretHash('rt_hash_rt_1');
      expect(found?.token.created_at).toBe(T0 + 3);
      expect(found?.token.expires_at).toBe(T0 + 4);
      expect(typeof found?.token.expires_at).toBe('number');
      expect(found?.issuer).toEqual({
        kind: 'api_key',
        id: 'key_1',
        expires_at: T0 + MINUTE,
        revoked_at: T0 + 2 * MINUTE,
      });
      expect(typeof found?.issuer.expires_at).toBe('number');
    });

    it('keeps millisecond precision far in the future', async () => {
      const far = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
      await repos.projects.insert(project('proj_a', far));
      expect((await repos.projects.get('proj_a'))?.created_at).toBe(far);
    });
  });

  describe('ApiKeysRepository', () => {
    beforeEach(async () => {
      await repos.projects.insert(project('proj_a'));
      await repos.projects.insert(project('proj_b'));
    });

    it('inserts and gets a key', async () => {
      const row = apiKey('key_1');
      await repos.apiKeys.insert(row);
      expect(await repos.apiKeys.get('key_1')).toEqual(row);
      expect(await repos.apiKeys.get('key_missing')).toBeUndefined();
    });

    it('finds a key by its secret hash', async () => {
      await repos.apiKeys.insert(apiKey('key_1', { secret_hash: 'a'.repeat(64) }));
      await repos.apiKeys.insert(apiKey('key_2', { secret_hash: 'b'.repeat(64) }));
      expect((await repos.apiKeys.findBySecretHash('b'.repeat(64)))?.id).toBe('key_2');
      expect(await repos.apiKeys.findBySecretHash('c'.repeat(64))).toBeUndefined();
    });

    it('lists keys filtered by project and environment, oldest first', async () => {
      await repos.apiKeys.insert(
        apiKey('key_4', {
          project_id: 'proj_b',
          environment: 'test',
          created_at: T0 + 1,
        }),
      );
      await repos.apiKeys.insert(
        apiKey('key_3', {
          project_id: 'proj_a',
          environment: 'live',
          created_at: T0 + 3,
        }),
      );
      await repos.apiKeys.insert(
        apiKey('key_2', {
          project_id: 'proj_a',
          environment: 'test',
          created_at: T0 + 2,
        }),
      );
      await repos.apiKeys.insert(
        apiKey('key_1', {
          project_id: 'proj_a',
          environment: 'test',
          created_at: T0 + 2,
        }),
      );

      const ids = async (filter: Parameters<Repositories['apiKeys']['list']>[0]) =>
        (await repos.apiKeys.list(filter)).map((row) => row.id);

      expect(await ids({})).toEqual(['key_4', 'key_1', 'key_2', 'key_3']);
      expect(await ids({ projectId: 'proj_a' })).toEqual(['key_1', 'key_2', 'key_3']);
      expect(await ids({ projectId: 'proj_b' })).toEqual(['key_4']);
      expect(await ids({ environment: 'live' })).toEqual(['key_3']);
      expect(await ids({ projectId: 'proj_a', environment: 'test' })).toEqual(['key_1', 'key_2']);
      expect(await ids({ projectId: 'proj_b', environment: 'live' })).toEqual([]);
      expect(await ids({ projectId: 'proj_missing' })).toEqual([]);
    });

    it('rotates: inserts the replacement and starts the grace period of the old key', async () => {
      await repos.apiKeys.insert(apiKey('key_old'));
      const replacement = apiKey('key_new', { created_at: T0 + MINUTE });

      expect(await repos.apiKeys.rotate('key_old', replacement, T0 + 5 * MINUTE)).toBe(true);

      expect(await repos.apiKeys.get('key_new')).toEqual(replacement);
      expect(await repos.apiKeys.get('key_old')).toMatchObject({
        expires_at: T0 + 5 * MINUTE,
        replaced_by: 'key_new',
        revoked_at: null,
      });
    });

    it('refuses a second rotation of the same key and inserts nothing', async () => {
      await repos.apiKeys.insert(apiKey('key_old'));
      expect(await repos.apiKeys.rotate('key_old', apiKey('key_new'), T0 + MINUTE)).toBe(true);

      expect(await repos.apiKeys.rotate('key_old', apiKey('key_newer'), T0 + 9 * MINUTE)).toBe(false);

      expect(await repos.apiKeys.get('key_newer')).toBeUndefined();
      expect(await repos.apiKeys.get('key_old')).toMatchObject({
        expires_at: T0 + MINUTE,
        replaced_by: 'key_new',
      });
    });

    it('refuses to rotate a revoked key and inserts nothing', async () => {
      await repos.apiKeys.insert(apiKey('key_old'));
      expect(await repos.apiKeys.revoke('key_old', T0 + 1)).toBe(true);

      expect(await repos.apiKeys.rotate('key_old', apiKey('key_new'), T0 + MINUTE)).toBe(false);

      expect(await repos.apiKeys.get('key_new')).toBeUndefined();
      expect(await repos.apiKeys.get('key_old')).toMatchObject({
        expires_at: null,
        replaced_by: null,
      });
    });

    it('refuses to rotate a key that does not exist', async () => {
      expect(await repos.apiKeys.rotate('key_missing', apiKey('key_new'), T0 + MINUTE)).toBe(false);
      expect(await repos.apiKeys.get('key_new')).toBeUndefined();
    });

    it('leaves the old key untouched when inserting the replacement fails', async () => {
      await repos.apiKeys.insert(apiKey('key_old', { secret_hash: 'hash_old' }));
      // The replacement reuses the old key's secret hash, so its insert violates the unique constraint.
      const clashing = apiKey('key_new', { secret_hash: 'hash_old' });

      await expect(repos.apiKeys.rotate('key_old', clashing, T0 + MINUTE)).rejects.toThrow();

      expect(await repos.apiKeys.get('key_old')).toMatchObject({
        expires_at: null,
        replaced_by: null,
      });
      expect(await repos.apiKeys.get('key_new')).toBeUndefined();
      // And the key can still be rotated properly afterwards.
      expect(await repos.apiKeys.rotate('key_old', apiKey('key_new'), T0 + MINUTE)).toBe(true);
    });

    it('revokes once; the second revocation returns false and keeps the first time', async () => {
      await repos.apiKeys.insert(apiKey('key_1'));
      expect(await repos.apiKeys.revoke('key_1', T0 + MINUTE)).toBe(true);
      expect(await repos.apiKeys.revoke('key_1', T0 + 2 * MINUTE)).toBe(false);
      expect((await repos.apiKeys.get('key_1'))?.revoked_at).toBe(T0 + MINUTE);
      expect(await repos.apiKeys.revoke('key_missing', T0)).toBe(false);
    });

    it("refuses an environment other than 'test' or 'live'", async () => {
      const staging = {
        ...apiKey('key_1'),
        environment: 'staging',
      } as unknown as ApiKeyRow;
      await expect(repos.apiKeys.insert(staging)).rejects.toThrow();
      expect(await repos.apiKeys.get('key_1')).toBeUndefined();
    });

    it('refuses two keys with the same secret hash', async () => {
      await repos.apiKeys.insert(apiKey('key_1', { secret_hash: 'same' }));
      await expect(repos.apiKeys.insert(apiKey('key_2', { secret_hash: 'same' }))).rejects.toThrow();
      expect(await repos.apiKeys.get('key_2')).toBeUndefined();
    });

    it('refuses a key for a project that does not exist', async () => {
      await expect(repos.apiKeys.insert(apiKey('key_1', { project_id: 'proj_missing' }))).rejects.toThrow();
    });
  });

  describe('RealtimeTokensRepository', () => {
    beforeEach(async () => {
      await repos.projects.insert(project('proj_a'));
      await repos.apiKeys.insert(apiKey('key_1'));
    });

    it('inserts a token and finds it by hash together with its parent key', async () => {
      const row = token('rt_1');
      await repos.realtimeTokens.insert(row);

      expect(await repos.realtimeTokens.findBySecretHash('rt_hash_rt_1')).toEqual({
        token: row,
        issuer: { kind: 'api_key', id: 'key_1', expires_at: null, revoked_at: null },
      });
      expect(await repos.realtimeTokens.findBySecretHash('rt_hash_missing')).toBeUndefined();
    });

    it("reflects the parent key's later rotation and revocation", async () => {
      await repos.realtimeTokens.insert(token('rt_1'));
      await repos.apiKeys.rotate('key_1', apiKey('key_2'), T0 + 5 * MINUTE);
      expect((await repos.realtimeTokens.findBySecretHash('rt_hash_rt_1'))?.issuer).toEqual({
        kind: 'api_key',
        id: 'key_1',
        expires_at: T0 + 5 * MINUTE,
        revoked_at: null,
      });

      await repos.apiKeys.revoke('key_1', T0 + MINUTE);
      expect((await repos.realtimeTokens.findBySecretHash('rt_hash_rt_1'))?.issuer).toEqual({
        kind: 'api_key',
        id: 'key_1',
        expires_at: T0 + 5 * MINUTE,
        revoked_at: T0 + MINUTE,
      });
    });

    it('deletes only tokens that expired strictly before the given time', async () => {
      await repos.realtimeTokens.insert(token('rt_old', { expires_at: T0 + 1 * MINUTE }));
      await repos.realtimeTokens.insert(token('rt_edge', { expires_at: T0 + 2 * MINUTE }));
      await repos.realtimeTokens.insert(token('rt_new', { expires_at: T0 + 3 * MINUTE }));

      expect(await repos.realtimeTokens.deleteExpired(T0 + 2 * MINUTE)).toBe(1);

      expect(await repos.realtimeTokens.findBySecretHash('rt_hash_rt_old')).toBeUndefined();
      expect(await repos.realtimeTokens.findBySecretHash('rt_hash_rt_edge')).toBeDefined();
      expect(await repos.realtimeTokens.findBySecretHash('rt_hash_rt_new')).toBeDefined();

      expect(await repos.realtimeTokens.deleteExpired(T0 + 2 * MINUTE)).toBe(0);
      expect(await repos.realtimeTokens.deleteExpired(T0 + 10 * MINUTE)).toBe(2);
      expect(await repos.realtimeTokens.findBySecretHash('rt_hash_rt_new')).toBeUndefined();
    });

    it('refuses two tokens with the same secret hash', async () => {
      await repos.realtimeTokens.insert(token('rt_1', { secret_hash: 'same' }));
      await expect(repos.realtimeTokens.insert(token('rt_2', { secret_hash: 'same' }))).rejects.toThrow();
    });

    it("refuses the 'staging' environment", async () => {
      const staging = {
        ...token('rt_1'),
        environment: 'staging',
      } as unknown as RealtimeTokenRow;
      await expect(repos.realtimeTokens.insert(staging)).rejects.toThrow();
      expect(await repos.realtimeTokens.findBySecretHash('rt_hash_rt_1')).toBeUndefined();
    });
  });

  describe('migrateToLatest', () => {
    it('applies the migrations to an empty database, then nothing the second time', async () => {
      // On PostgreSQL, testDb's schema is already migrated next to this one; it must not be mistaken for it.
      const fresh = await openEmptyTestDatabase(dialect);
      try {
        expect(await migrateToLatest(fresh.database)).toEqual({
          applied: [...MIGRATION_NAMES],
        });
        expect(await migrateToLatest(fresh.database)).toEqual({ applied: [] });
        const freshRepos = createRepositories(fresh.database);
        await freshRepos.projects.insert(project('proj_a'));
        expect(await freshRepos.projects.count()).toBe(1);
        expect(await repos.projects.count()).toBe(0);
      } finally {
        await fresh.dispose();
      }
    });

    it('is a no-op on an already migrated database and keeps its data', async () => {
      await repos.projects.insert(project('proj_a'));
      expect(await migrateToLatest(testDb.database)).toEqual({ applied: [] });
      expect(await migrateToLatest(testDb.database)).toEqual({ applied: [] });
      expect(await repos.projects.count()).toBe(1);
    });
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)('openTestDatabase on postgres', () => {
  it('gives each call its own schema', async () => {
    const first = await openTestDatabase('postgres');
    try {
      const second = await openTestDatabase('postgres');
      try {
        const firstRepos = createRepositories(first.database);
        const secondRepos = createRepositories(second.database);
        await firstRepos.projects.insert(project('proj_only_in_first'));
        await secondRepos.projects.insert(project('proj_only_in_second'));

        expect((await firstRepos.projects.list()).map((row) => row.id)).toEqual(['proj_only_in_first']);
        expect((await secondRepos.projects.list()).map((row) => row.id)).toEqual(['proj_only_in_second']);
        expect(await secondRepos.projects.get('proj_only_in_first')).toBeUndefined();
        // Each schema keeps its own migration bookkeeping.
        expect(await migrateToLatest(second.database)).toEqual({
          applied: [],
        });
      } finally {
        await second.dispose();
      }
      // Dropping the other schema leaves this one working.
      expect(await createRepositories(first.database).projects.count()).toBe(1);
    } finally {
      await first.dispose();
    }
  });
});
