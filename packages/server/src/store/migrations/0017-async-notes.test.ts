import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';

import { openEmptyTestDatabase, TEST_DIALECTS, type TestDatabase } from '@chartwright/testing/databases.js';
import { createMigrator, migrateToLatest } from '../migrate.js';
import { createRepositories } from '../repositories.js';
import { noteOrProgressFromRow } from '../../notes/note-records.js';
import { MIGRATION_NAMES } from './index.js';

const SCOPE = { projectId: 'proj_old', environment: 'live' } as const;

describe.each(TEST_DIALECTS)('upgrading to asynchronous notes (0017) on %s', (dialect) => {
  let opened: TestDatabase | undefined;
  afterEach(async () => {
    await opened?.dispose();
  });

  it('keeps every existing note, now ready, and queues new ones beside it', async () => {
    opened = await openEmptyTestDatabase(dialect);
    const { database } = opened;
    const previous = MIGRATION_NAMES[MIGRATION_NAMES.indexOf('0017-async-notes') - 1] ?? '';
    expect((await (await createMigrator(database)).migrateTo(previous)).error).toBeUndefined();
    const db = database.db;
    // What a service before 0017 left: a project and a note it wrote.
    await sql`insert into projects (id, name, created_at) values ('proj_old', 'Clinic', 1)`.execute(db);
    await sql`insert into notes (id, project_id, environment, template_id, template_version, engine_name, engine_version,
      fallback, input_sha256, note_text, sections, created_at, expires_at, style)
      values ('note_old', 'proj_old', 'live', 'soap', 1, 'extractive', '1', null, 'abc', 'SUBJECTIVE\nCough.', '[]', 1, ${Date.UTC(2100, 0, 1)}, 'concise')`.execute(
      db,
    );

    expect(await migrateToLatest(database)).toEqual({ applied: ['0017-async-notes'] });

    const repositories = createRepositories(database);
    const old = await repositories.notes.getScoped('note_old', SCOPE, 2);
    expect(old).toMatchObject({ status: 'ready', attempt: 1, callback_url: null, request: null, error_code: null });
    expect(noteOrProgressFromRow(old ?? ({} as never))).toMatchObject({
      id: 'note_old',
      status: 'ready',
      note: 'SUBJECTIVE\nCough.',
      style: 'concise',
    });
    // The queue sees nothing to do in the old data, and takes a new note beside it.
    expect(await repositories.noteJobs.runnable(2, 2, 10)).toEqual([]);
    await repositories.notes.insert({ ...(old ?? ({} as never)), id: 'note_new', status: 'queued', attempt: 0 });
    expect(await repositories.noteJobs.runnable(2, 2, 10)).toEqual([{ id: 'note_new', attempt: 0, run_after: null }]);
    expect(await repositories.noteJobs.claim('note_new', 3, 3)).toMatchObject({ status: 'generating', attempt: 1 });
    expect(await repositories.webhookEndpoints.list(SCOPE)).toEqual([]);
  });

  it('goes down to 0016 without the notes it could not read, and up again', async () => {
    opened = await openEmptyTestDatabase(dialect);
    await migrateToLatest(opened.database);
    const db = opened.database.db;
    await sql`insert into projects (id, name, created_at) values ('proj_old', 'Clinic', 1)`.execute(db);
    for (const [id, status] of [
      ['note_ready', 'ready'],
      ['note_queued', 'queued'],
    ]) {
      await sql`insert into notes (id, project_id, environment, template_id, template_version, engine_name, engine_version,
        input_sha256, note_text, sections, created_at, expires_at, style, status)
        values (${id}, 'proj_old', 'live', 'soap', 1, '', '', 'abc', '', '[]', 1, 2, 'detailed', ${status})`.execute(
        db,
      );
    }
    const migrator = await createMigrator(opened.database);
    expect((await migrator.migrateDown()).error).toBeUndefined();
    const schema = opened.schema;
    const tables = (await opened.database.db.introspection.getTables())
      .filter((table) => schema === undefined || table.schema === schema)
      .map((table) => table.name);
    expect(tables).not.toContain('webhook_deliveries');
    const left = await sql<{ id: string }>`select id from notes order by id`.execute(db);
    expect(left.rows.map((row) => row.id)).toEqual(['note_ready']);
    expect((await migrateToLatest(opened.database)).applied).toEqual(['0017-async-notes']);
  });
});
