import type { Note } from '@chartwright/protocol';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { openEmptyTestDatabase, TEST_DIALECTS, type TestDatabase } from '@chartwright/testing/databases.js';
import { generateSecret, hashSecret } from '../../auth/secrets.js';
import { createMigrator, migrateToLatest } from '../migrate.js';
import { MIGRATION_NAMES } from './index.js';

describe.each(TEST_DIALECTS)('upgrading to idempotency keys (0016) on %s', (dialect) => {
  let opened: TestDatabase | undefined;
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    await opened?.dispose();
  });

  it('serves creates with an Idempotency-Key with the keys a service before 0016 issued, and goes down and up again', async () => {
    opened = await openEmptyTestDatabase(dialect);
    const { database } = opened;
    const previous = MIGRATION_NAMES[MIGRATION_NAMES.indexOf('0016-idempotency-keys') - 1] ?? '';
    expect((await (await createMigrator(database)).migrateTo(previous)).error).toBeUndefined();
    // What a service before 0016 left: a project of its organisation and a sandbox key.
    const secret = generateSecret('sk_test_');
    await sql`insert into organisations (id, name, created_at) values ('org_old', 'Clinic org', 1)`.execute(
      database.db,
    );
    await sql`insert into projects (id, name, created_at, organisation_id)
      values ('proj_old', 'Clinic', 1, 'org_old')`.execute(database.db);
    await sql`insert into api_keys (id, project_id, environment, name, secret_hash, hint, created_at)
      values ('key_old', 'proj_old', 'test', 'default', ${hashSecret(secret)}, 'sk_test_…', 1)`.execute(database.db);

    await migrateToLatest(database);
    h = await createHarness({ database });
    const create = () =>
      h!.request({
        method: 'POST',
        url: '/api/v1/notes',
        key: secret,
        headers: { 'idempotency-key': 'after-upgrade' },
        payload: { template_id: 'soap', conversation_text: 'Doctor: How are you?\nPatient: A headache since noon.' },
      });
    const first = await create();
    expect(first.statusCode, first.body).toBe(201);
    const retry = await create();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json<Note>().id).toBe(first.json<Note>().id);
    await h.close();
    h = undefined;

    const migrator = await createMigrator(database);
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    // On PostgreSQL, this test's schema: other tests' schemas live in the same database.
    const tables = (await database.db.introspection.getTables()).filter(
      (table) => opened?.schema === undefined || table.schema === opened.schema,
    );
    expect(tables.map((table) => table.name)).not.toContain('idempotency_keys');
    expect((await migrateToLatest(database)).applied).toEqual(
      MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf('0016-idempotency-keys')),
    );
  });
});
