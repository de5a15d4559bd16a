import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { PHI, phiFoundIn, recordPhiVisit, type PhiVisit } from '@chartwright/testing/phi-visit.js';
import { testConfig } from '../config/config.js';
import type { AuditEventRow } from '../store/audit-events.js';
import { openDatabase, type Database } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { runCli } from './commands.js';

const DAY_MS = 86_400_000;

/**
 * The audit, deletion and retention commands against the database a running service wrote, with the
 * key file both find beside it (no AUDIT_HMAC_KEY): what an operator with a shell on the server does.
 */
describe('audit, delete and retention commands', () => {
  let dir: string;
  let env: Record<string, string>;
  let database: Database;
  let h: Harness;
  let visit: PhiVisit;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chartwright-privacy-cli-'));
    env = { DATABASE_URL: join(dir, 'chartwright.db') };
    database = openDatabase({ kind: 'sqlite', path: env['DATABASE_URL'] ?? '' });
    await migrateToLatest(database);
    const defaults = testConfig();
    h = await createHarness({
      database,
      config: { audit: { ...defaults.audit, hmacKey: null }, keyFile: join(dir, 'chartwright.keys.json') },
    });
    visit = await recordPhiVisit(h);
  });
  afterEach(async () => {
    await h.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, env, { out: (text) => out.push(text), err: (text) => err.push(text) }, h.clock);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  async function json<T>(...argv: string[]): Promise<T> {
    const result = await cli(...argv, '--json');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.out) as T;
  }

  it('keeps the audit key in an owner-only key file, and only its fingerprint in the database', async () => {
    const keyFile = join(dir, 'chartwright.keys.json');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = (JSON.parse(readFileSync(keyFile, 'utf8')) as Record<string, string>)['audit_hmac_key'];
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await h.repositories.serviceSecrets.get('audit_hmac_key')).toBeUndefined();
    expect(await h.repositories.serviceSecrets.get('fingerprint:audit_hmac_key')).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(env['DATABASE_URL'] ?? '').includes(Buffer.from(key ?? '-'))).toBe(false);
  });

  it('lists who touched a patient, found by their EMR id without PHI in any record', async () => {
    const records = await json<AuditEventRow[]>('audit', 'list', '--patient', PHI.mrn, '--partner', visit.partner.id);
    expect(records.map((record) => `${record.action} ${record.resource_type}`)).toEqual([
      'update patient_context',
      'create consent',
      'update transcript_segment',
      'update transcript',
      'create note',
      'create document',
      'update document',
      'export document',
    ]);
    expect(new Set(records.map((record) => record.actor_id))).toEqual(new Set([visit.widget.clinicianId]));
    expect(phiFoundIn(Buffer.from(JSON.stringify(records)))).toEqual([]);

    const human = await cli('audit', 'list', '--resource-type', 'note', '--action', 'create');
    expect(human.code).toBe(0);
    expect(human.out.split('\n')).toHaveLength(2);
    expect(human.out).toContain(
      `create  note:${visit.encounterNoteId}  clinician:${visit.widget.clinicianId}  success 201`,
    );

    expect(await json('audit', 'list', '--since', '2100-01-01')).toEqual([]);
    expect((await cli('audit', 'list', '--patient', PHI.mrn)).code).toBe(2);
    expect((await cli('audit', 'list', '--since', 'yesterday')).code).toBe(2);
    expect((await cli('audit', 'list', '--action', 'peek')).code).toBe(2);
  });

  it('verifies the chain, and finds an edited record and a removed one', async () => {
    const records = await h.repositories.auditEvents.list({});
    expect(await json('audit', 'verify')).toEqual({ records: records.length, broken: null });

    const third = records[2];
    if (third === undefined) throw new Error('the visit left fewer than three records');
    await database.db
      .updateTable('audit_events')
      .set({ actor_id: 'someone_else' })
      .where('seq', '=', third.seq)
      .execute();
    const edited = await cli('audit', 'verify');
    expect(edited.code).toBe(1);
    expect(edited.err).toContain(`broken at record ${third.seq} (${third.id})`);
    expect(edited.err).toContain('edited');

    await database.db
      .updateTable('audit_events')
      .set({ actor_id: third.actor_id })
      .where('seq', '=', third.seq)
      .execute();
    await database.db.deleteFrom('audit_events').where('seq', '=', third.seq).execute();
    const removed = await cli('audit', 'verify');
    expect(removed.code).toBe(1);
    expect(removed.err).toContain(`broken at record ${third.seq + 1}`);
    expect(removed.err).toContain('removed or inserted');
  });

  it('deletes an encounter with everything under it, audited as the CLI user, and says when there is none', async () => {
    const deleted = await json<{ deleted: { type: string; id: string } }>(
      'delete',
      'encounter',
      visit.widget.sessionId,
    );
    expect(deleted).toEqual({ deleted: { type: 'encounter', id: visit.widget.sessionId } });
    expect(await h.repositories.encounters.auditSubject(visit.widget.sessionId)).toBeUndefined();
    expect(await h.repositories.realtimeSessions.get(visit.realtimeSessionId)).toBeUndefined();
    expect(phiFoundIn(readFileSync(env['DATABASE_URL'] ?? ''))).toEqual([PHI.restNote]);

    const [record] = await json<AuditEventRow[]>('audit', 'list', '--actor-kind', 'cli');
    expect(record).toMatchObject({
      action: 'delete',
      resource_type: 'encounter',
      resource_id: visit.widget.sessionId,
      partner_id: visit.partner.id,
      outcome: 'success',
      patient_ref: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
    const again = await cli('delete', 'encounter', visit.widget.sessionId);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`no encounter ${visit.widget.sessionId} exists`);
    expect((await json<AuditEventRow[]>('audit', 'list', '--actor-kind', 'cli')).at(-1)).toMatchObject({
      outcome: 'failure',
      error_code: 'not_found',
    });
    expect((await cli('delete', 'patient', 'x')).code).toBe(2);
    expect((await cli('delete', 'note')).code).toBe(2);
    expect(await json('audit', 'verify')).toMatchObject({ broken: null });
  });

  it('deletes a note, a document and a realtime session one at a time', async () => {
    await json('delete', 'note', visit.restNoteId);
    await json('delete', 'document', visit.documentId);
    await json('delete', 'realtime-session', visit.realtimeSessionId);
    await json('delete', 'note', visit.encounterNoteId);
    const left = phiFoundIn(readFileSync(env['DATABASE_URL'] ?? ''));
    // What remains is the encounter's own: its patient context and consent.
    expect(left.sort()).toEqual(
      [PHI.complaint, PHI.consentNote, PHI.dob, PHI.email, PHI.healthCard, PHI.mrn, PHI.name].sort(),
    );
  });

  it('sweeps what is past its retention on demand', async () => {
    expect(await json('retention', 'sweep')).toEqual({
      deleted: {
        notes: 0,
        documents: 0,
        realtime_sessions: 0,
        encounters: 0,
        audit_events: 0,
        idempotency_keys: 0,
        console_sessions: 0,
        console_links: 0,
        console_sso_logins: 0,
      },
    });
    h.clock.advance(31 * DAY_MS);
    expect(await json('retention', 'sweep')).toEqual({
      deleted: {
        notes: 2,
        documents: 1,
        realtime_sessions: 1,
        encounters: 1,
        audit_events: 0,
        idempotency_keys: 0,
        console_sessions: 0,
        console_links: 0,
        console_sso_logins: 0,
      },
    });
    const recorded = (await h.repositories.auditEvents.list({})).length;
    h.clock.advance(h.config.audit.retentionDays * DAY_MS);
    const { deleted } = await json<{ deleted: { audit_events: number } }>('retention', 'sweep');
    expect(deleted.audit_events).toBe(recorded);
    expect(await h.repositories.auditEvents.list({})).toEqual([]);
  });
});
