import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';

import { AuditLog } from '../../audit/audit-log.js';
import { ApiKeyService } from '../../auth/api-keys.js';
import { ManualClock } from '../../clock.js';
import { ConsoleMembers } from '../../console/members.js';
import { ProjectService } from '../../projects/project-service.js';
import { openEmptyTestDatabase, TEST_DIALECTS, type TestDatabase } from '@chartwright/testing/databases.js';
import { createMigrator, migrateToLatest } from '../migrate.js';
import { createRepositories } from '../repositories.js';
import { MIGRATION_NAMES } from './index.js';

const HMAC_KEY = 'upgrade-test-audit-key-0123456789abcdef';

describe.each(TEST_DIALECTS)('upgrading to the console (0015) on %s', (dialect) => {
  let opened: TestDatabase | undefined;
  afterEach(async () => {
    await opened?.dispose();
  });

  it('puts existing projects in one organisation, keeps keys working and the audit chain whole', async () => {
    opened = await openEmptyTestDatabase(dialect);
    const { database } = opened;
    const previous = MIGRATION_NAMES[MIGRATION_NAMES.indexOf('0015-console') - 1] ?? '';
    expect((await (await createMigrator(database)).migrateTo(previous)).error).toBeUndefined();
    const db = database.db;
    // What a service before 0015 left: a project, a key, and chained audit records.
    await sql`insert into projects (id, name, created_at) values ('proj_old', 'Clinic', 1)`.execute(db);
    await sql`insert into api_keys (id, project_id, environment, name, secret_hash, hint, created_at)
      values ('key_old', 'proj_old', 'live', 'default', 'hash-old', 'sk_live_…abcd', 1)`.execute(db);
    const clock = new ManualClock();
    const repositories = createRepositories(database);
    const oldLog = new AuditLog({ events: repositories.auditEvents, clock, key: HMAC_KEY, retentionMs: 1e12 });
    for (const action of ['create', 'read'] as const) {
      // The 0013 columns only: the row type knows organisation_id, the table does not yet.
      await repositories.auditEvents.append((head) => {
        const row = {
          seq: (head?.seq ?? 0) + 1,
          id: `aud_${action}`,
          occurred_at: clock.now(),
          actor_kind: 'api_key' as const,
          actor_id: 'key_old',
          project_id: 'proj_old',
          environment: 'live' as const,
          partner_id: null,
          action,
          resource_type: 'note',
          resource_id: 'note_1',
          encounter_id: null,
          patient_ref: null,
          outcome: 'success' as const,
          status: 200,
          error_code: null,
          ip: '127.0.0.1',
          request_id: `req_${action}`,
          previous_hash: head?.hash ?? '0'.repeat(64),
        };
        const hashed = oldLog['hashOf']({ ...row, organisation_id: null });
        return { ...row, hash: hashed } as never;
      });
    }

    await migrateToLatest(database);

    const [organisation] = await repositories.organisations.list();
    const projects = new ProjectService(repositories, clock);
    expect((await projects.list(organisation?.id)).map((project) => project.id)).toEqual(['proj_old']);
    const [key] = await new ApiKeyService(repositories, clock, 0).list({ projectId: 'proj_old' });
    expect(key).toMatchObject({ id: 'key_old', status: 'active', createdBy: null, lastUsedAt: null });

    const log = new AuditLog({ events: repositories.auditEvents, clock, key: HMAC_KEY, retentionMs: 1e12 });
    await log.record({
      actor: {
        kind: 'console_member',
        id: 'mem_1',
        projectId: null,
        environment: null,
        partnerId: null,
        organisationId: organisation?.id ?? null,
      },
      action: 'sign_in',
      resourceType: 'console_session',
      resourceId: null,
      encounterId: null,
      patientKey: null,
      outcome: 'success',
      status: 201,
      errorCode: null,
      ip: null,
      requestId: null,
    });
    expect(await log.verify()).toEqual({ records: 3, broken: null });

    // The organisation made by the upgrade has no owner yet: its setup link makes one.
    const members = new ConsoleMembers(repositories, clock, 'https://scribe.example');
    expect(await members.hasOwner(organisation?.id ?? '')).toBe(false);
    const link = await members.issueSetupLink(organisation?.id ?? '');
    expect(link.url).toMatch(/^https:\/\/scribe\.example\/console#\/setup\//);
  });

  it('goes down to 0014 keeping the records 0014 can hold, and up again', async () => {
    opened = await openEmptyTestDatabase(dialect);
    await migrateToLatest(opened.database);
    const migrator = await createMigrator(opened.database);
    expect((await migrator.migrateTo('0014-exact-partner-origins')).error).toBeUndefined();
    // On PostgreSQL, this test's schema: other tests' schemas live in the same database.
    const tables = (await opened.database.db.introspection.getTables()).filter(
      (table) => opened?.schema === undefined || table.schema === opened.schema,
    );
    expect(tables.map((table) => table.name)).not.toContain('console_members');
    expect((await migrateToLatest(opened.database)).applied).toEqual(
      MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf('0015-console')),
    );
  });
});
