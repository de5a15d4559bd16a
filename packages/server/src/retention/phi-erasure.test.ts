import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TEST_DATABASE_URL, openTestDatabase } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { PHI, phiFoundIn, recordPhiVisit, type PhiVisit } from '@chartwright/testing/phi-visit.js';
import { widgetCall } from '@chartwright/testing/widget-encounters.js';
import { openDatabase, type Database } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';

const DAY_MS = 86_400_000;

/** Every table that holds patient data, directly or as a copy. */
const PHI_TABLES = [
  'notes',
  'encounter_notes',
  'encounter_documents',
  'encounter_document_revisions',
  'realtime_sessions',
  'transcript_segments',
  'transcript_segment_revisions',
  'transcript_speaker_roles',
  'encounter_consents',
  'encounters',
] as const;

async function rowsLeft(database: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of PHI_TABLES) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
      database.db,
    );
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

const NONE_LEFT = Object.fromEntries(PHI_TABLES.map((table) => [table, 0]));

/** Deletes the visit the way a clinician (widget) and a developer (REST) can: every record of it. */
async function deleteOnDemand(h: Harness, visit: PhiVisit): Promise<void> {
  const encounter = await widgetCall(
    h,
    visit.widget.token,
    'DELETE',
    `/api/widget/encounters/${visit.widget.sessionId}`,
  );
  expect(encounter.statusCode, encounter.body).toBe(204);
  const note = await h.request({ method: 'DELETE', url: `/api/v1/notes/${visit.restNoteId}`, key: h.project.testKey });
  expect(note.statusCode, note.body).toBe(204);
}

describe('patient data on SQLite, in the files themselves', () => {
  let directory: string;
  let path: string;
  let h: Harness;
  let database: Database;
  beforeEach(async () => {
    directory = join(mkdtempSync(join(tmpdir(), 'chartwright-phi-')), 'data');
    path = join(directory, 'chartwright.db');
    database = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(database);
    h = await createHarness({ database });
  });
  afterEach(async () => {
    await h.close();
    await database.close();
    rmSync(join(directory, '..'), { recursive: true, force: true });
  });

  /** The database file and its write-ahead log, as a copy of the data directory would hold them. */
  const files = () =>
    Buffer.concat(
      [path, `${path}-wal`].map((file) => {
        try {
          return readFileSync(file);
        } catch {
          return Buffer.alloc(0);
        }
      }),
    );

  it('keeps the database, its log and their directory to the service user alone', async () => {
    await recordPhiVisit(h);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('holds the visit until retention ends, then no byte of it in the file or the WAL', async () => {
    await recordPhiVisit(h);
    expect(phiFoundIn(files()).sort()).toEqual(Object.values(PHI).sort());

    h.clock.advance(h.config.notes.retentionDays * DAY_MS - 1);
    expect(await h.retention.sweep()).toMatchObject({ notes: 0, documents: 0, realtime_sessions: 0, encounters: 0 });
    expect(phiFoundIn(files())).toHaveLength(Object.values(PHI).length);

    h.clock.advance(Math.max(h.config.notes.retentionDays, h.config.realtime.retentionDays) * DAY_MS);
    expect(await h.retention.sweep()).toMatchObject({ notes: 2, documents: 1, realtime_sessions: 1, encounters: 1 });
    expect(await rowsLeft(database)).toEqual(NONE_LEFT);
    expect(phiFoundIn(files())).toEqual([]);
  });

  it('deletes on demand at once, as completely as retention does', async () => {
    const visit = await recordPhiVisit(h);
    await deleteOnDemand(h, visit);
    expect(await rowsLeft(database)).toEqual(NONE_LEFT);
    expect(phiFoundIn(files())).toEqual([]);
  });

  it('turns on erasure for a database made before it, without losing its data', async () => {
    await h.close();
    await database.close();
    // As an earlier version left it: no incremental vacuum, a visit's worth of rows.
    const legacy = new (await import('better-sqlite3')).default(path);
    legacy.pragma('auto_vacuum = NONE');
    legacy.exec('VACUUM');
    expect(legacy.pragma('auto_vacuum', { simple: true })).toBe(0);
    legacy.close();
    database = openDatabase({ kind: 'sqlite', path });
    const { rows } = await sql<{ auto_vacuum: number }>`pragma auto_vacuum`.execute(database.db);
    expect(rows[0]?.auto_vacuum).toBe(2);
    const { rows: secure } = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(database.db);
    expect(secure[0]?.secure_delete).toBe(1);
    h = await createHarness({ database });
    expect((await h.request({ method: 'GET', url: '/api/v1/templates', key: h.project.testKey })).statusCode).toBe(200);
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)('patient data on PostgreSQL', () => {
  let h: Harness;
  let dispose: () => Promise<void>;
  let database: Database;
  beforeEach(async () => {
    const opened = await openTestDatabase('postgres');
    database = opened.database;
    dispose = () => opened.dispose();
    h = await createHarness({ database });
  });
  afterEach(async () => {
    await h.close();
    await dispose();
  });

  it('leaves no row of the visit once retention ends', async () => {
    await recordPhiVisit(h);
    expect(Object.values(await rowsLeft(database)).every((count) => count > 0)).toBe(true);
    h.clock.advance(Math.max(h.config.notes.retentionDays, h.config.realtime.retentionDays) * DAY_MS + 1);
    await h.retention.sweep();
    expect(await rowsLeft(database)).toEqual(NONE_LEFT);
  });

  it('leaves no row of the visit once it is deleted on demand', async () => {
    await deleteOnDemand(h, await recordPhiVisit(h));
    expect(await rowsLeft(database)).toEqual(NONE_LEFT);
  });
});
