import { afterEach, describe, expect, it } from 'vitest';

import { openEmptyTestDatabase, TEST_DIALECTS, type TestDatabase } from '@chartwright/testing/databases.js';
import { createMigrator, migrateToLatest } from '../migrate.js';
import { MIGRATION_NAMES } from './index.js';
import { createRepositories } from '../repositories.js';

describe.each(TEST_DIALECTS)('migrations on %s', (dialect) => {
  let opened: TestDatabase | undefined;
  afterEach(async () => {
    await opened?.dispose();
  });

  it('keeps realtime tokens minted before 0002 rebuilt their table', async () => {
    opened = await openEmptyTestDatabase(dialect);
    const { db } = opened.database;
    const migrator = await createMigrator(opened.database);
    const first = await migrator.migrateTo('0001-initial');
    expect(first.error).toBeUndefined();

    await db.insertInto('projects').values({ id: 'proj_1', name: 'Clinic', created_at: 1 }).execute();
    await db
      .insertInto('api_keys')
      .values({
        id: 'key_1',
        project_id: 'proj_1',
        environment: 'live',
        name: 'default',
        secret_hash: 'key-hash',
        hint: 'sk_live_…abcd',
        created_at: 1,
        expires_at: null,
        revoked_at: null,
        replaced_by: null,
      })
      .execute();
    // Written with the 0001 columns only, as a service on that version would have.
    await db
      .insertInto('realtime_tokens')
      .values({
        id: 'rtt_1',
        secret_hash: 'token-hash',
        project_id: 'proj_1',
        environment: 'live',
        api_key_id: 'key_1',
        created_at: 2,
        expires_at: 3,
      } as never)
      .execute();

    expect((await migrateToLatest(opened.database)).applied).toEqual(MIGRATION_NAMES.slice(1));
    const found = await createRepositories(opened.database).realtimeTokens.findBySecretHash('token-hash');
    expect(found).toEqual({
      token: {
        id: 'rtt_1',
        secret_hash: 'token-hash',
        project_id: 'proj_1',
        environment: 'live',
        api_key_id: 'key_1',
        partner_id: null,
        encounter_id: null,
        created_at: 2,
        expires_at: 3,
      },
      issuer: { kind: 'api_key', id: 'key_1', expires_at: null, revoked_at: null },
    });
  });

  it('migrates down and up again', async () => {
    opened = await openEmptyTestDatabase(dialect);
    await migrateToLatest(opened.database);
    const migrator = await createMigrator(opened.database);
    const down = await migrator.migrateDown();
    expect(down.error).toBeUndefined();
    expect((await migrateToLatest(opened.database)).applied).toEqual(MIGRATION_NAMES.slice(-1));
  });
});
