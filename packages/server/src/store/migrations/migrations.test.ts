import type {
  Note,
  RealtimeSessionResource,
  SetPatientContextRequest,
  WidgetDocument,
  WidgetDocumentList,
  WidgetEncounterState,
  WidgetNote,
  WidgetSessionInfo,
} from '@chartwright/protocol';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';

import { buildApp } from '../../app.js';
import { generateId, generateSecret, hashSecret } from '../../auth/secrets.js';
import { ManualClock } from '../../clock.js';
import { testConfig } from '../../config/config.js';
import { createLogger } from '../../logger.js';
import { PartnerService } from '../../partners/partner-service.js';
import { MemoryRateLimitStore } from '../../ratelimit/memory-store.js';
import { openEmptyTestDatabase, TEST_DIALECTS, type TestDatabase } from '@chartwright/testing/databases.js';
import { createMigrator, migrateToLatest } from '../migrate.js';
import { MIGRATION_NAMES } from './index.js';
import { createRepositories } from '../repositories.js';
import type { DatabaseSchema } from '../schema.js';

const HEADINGS = [
  { key: 'hpi', label: 'History of present illness' },
  { key: 'plan', label: 'Plan' },
];
const SOAP_HEADINGS = ['Subjective', 'Objective', 'Assessment', 'Plan'].map((label) => ({
  key: `emr_${label.toLowerCase()}`,
  label,
}));
const SOAP_KEYS = ['subjective', 'objective', 'assessment', 'plan'];

/** A sandbox key as a service before 0015 stored it (no creator, no last use); its secret. */
async function keyBefore0015(db: Kysely<DatabaseSchema>, projectId: string): Promise<string> {
  const secret = generateSecret('sk_test_');
  await sql`insert into api_keys (id, project_id, environment, name, secret_hash, hint, created_at)
    values (${generateId('key')}, ${projectId}, 'test', 'default', ${hashSecret(secret)}, 'sk_test_…', 1)`.execute(db);
  return secret;
}

describe.each(TEST_DIALECTS)('migrations on %s', (dialect) => {
  let opened: TestDatabase | undefined;
  afterEach(async () => {
    await opened?.dispose();
  });

  /**
   * A database migrated up to just before `migration`, as a service of the version before left it,
   * with a project to write rows for.
   */
  async function before(migration: string) {
    opened = await openEmptyTestDatabase(dialect);
    const previous = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(migration) - 1] ?? '';
    expect((await (await createMigrator(opened.database)).migrateTo(previous)).error).toBeUndefined();
    const clock = new ManualClock();
    const repositories = createRepositories(opened.database);
    // Written with the columns every version has, as a service of that version would have.
    const project = { id: 'proj_upgrade', name: 'Clinic' };
    await sql`insert into projects (id, name, created_at) values (${project.id}, ${project.name}, ${1})`.execute(
      opened.database.db,
    );
    return { database: opened.database, db: opened.database.db, clock, repositories, project };
  }

  it('keeps realtime tokens minted before 0002 rebuilt their table', async () => {
    opened = await openEmptyTestDatabase(dialect);
    const { db } = opened.database;
    const migrator = await createMigrator(opened.database);
    const first = await migrator.migrateTo('0001-initial');
    expect(first.error).toBeUndefined();

    await sql`insert into projects (id, name, created_at) values ('proj_1', 'Clinic', 1)`.execute(db);
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

  it('gives encounters with a patient context the template it resolves to, and serves them after the upgrade', async () => {
    const { database, db, clock, repositories, project } = await before('0007-encounter-note-template');
    const { partner, partnerKey } = await new PartnerService(repositories, clock, 0).create({
      projectId: project.id,
      environment: 'test',
      name: 'EMR',
      allowedOrigins: ['https://emr.example.com'],
    });
    await db
      .insertInto('clinicians')
      .values({
        id: 'cln_1',
        partner_id: partner.id,
        emr_user_id: 'emr-user-1',
        email: 'dr@clinic.example',
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    const encounter = (id: string, context: SetPatientContextRequest | null) => ({
      id,
      project_id: project.id,
      environment: 'test',
      partner_id: partner.id,
      clinician_id: 'cln_1',
      emr_session_id: id,
      patient_key: context === null ? null : `widget_${partner.id}_${context.patient.id}`,
      patient_id: context?.patient.id ?? null,
      patient_context: context === null ? null : JSON.stringify(context),
      // Used now, so the app's first sweep of idle, empty encounters keeps them.
      created_at: clock.now(),
      updated_at: clock.now(),
    });
    const patient = { id: 'MRN-1', name: 'Jane Doe' };
    // Written with the 0006 columns only, as a service on that version would have.
    await db
      .insertInto('encounters')
      .values([
        encounter('ses_headings', { patient, noteConfig: { sections: HEADINGS } }),
        encounter('ses_soap_keys', { patient, noteConfig: { sections: SOAP_HEADINGS } }),
        encounter('ses_soap', { patient }),
        encounter('ses_no_patient', null),
      ] as never)
      .execute();

    await migrateToLatest(database);
    const templates = new Map(
      (await db.selectFrom('encounters').select(['id', 'note_template']).execute()).map((row) => [
        row.id,
        row.note_template === null
          ? null
          : (JSON.parse(row.note_template) as Pick<WidgetEncounterState, 'template' | 'sectionKeys'>),
      ]),
    );
    expect(templates.get('ses_no_patient')).toBeNull();
    expect(templates.get('ses_headings')?.template).toMatchObject({
      id: expect.stringMatching(/^headings_/) as unknown,
      sections: HEADINGS.map(({ key, label }) => ({ key, label })),
    });
    expect(templates.get('ses_headings')?.sectionKeys).toEqual(
      HEADINGS.map(({ key, label }) => ({ templateKey: key, hostKey: key, label })),
    );
    expect(templates.get('ses_soap_keys')?.template.id).toBe('soap');
    expect(
      templates.get('ses_soap_keys')?.sectionKeys.map((section) => [section.templateKey, section.hostKey]),
    ).toEqual(SOAP_KEYS.map((key, index) => [key, SOAP_HEADINGS[index]?.key]));
    expect(templates.get('ses_soap')?.sectionKeys.map((section) => section.hostKey)).toEqual(SOAP_KEYS);

    // The service of this version serves what the previous one stored.
    const app = await buildApp(testConfig(), {
      database: database,
      clock,
      logger: createLogger('silent'),
      rateLimitStore: new MemoryRateLimitStore(),
    });
    try {
      const minted = await app.inject({
        method: 'POST',
        url: '/api/widget/token',
        headers: { 'x-partner-key': partnerKey },
        payload: { userEmail: 'dr@clinic.example', emrUserId: 'emr-user-1' },
      });
      const headers = { authorization: `Bearer ${minted.json<{ data: { token: string } }>().data.token}` };
      const state = await app.inject({ method: 'GET', url: '/api/widget/encounters/ses_headings', headers });
      expect(state.statusCode, state.body).toBe(200);
      expect(state.json<WidgetEncounterState>()).toMatchObject(templates.get('ses_headings') ?? {});
      const before = await app.inject({ method: 'GET', url: '/api/widget/encounters/ses_no_patient', headers });
      expect(before.json<WidgetEncounterState>().template.id).toBe('soap');
      const note = await app.inject({
        method: 'POST',
        url: '/api/widget/encounters/ses_headings/notes',
        headers,
        payload: { conversationText: 'Doctor: What brings you in?\nPatient: A cough for three days.' },
      });
      expect(note.statusCode, note.body).toBe(201);
      expect(Object.keys(note.json<WidgetNote>().sections)).toEqual(['hpi', 'plan']);
    } finally {
      await app.close();
    }
  });

  it('serves notes written before 0008 as detailed, with no flags, omissions, warnings, verification or facts', async () => {
    const { database, db, clock, project } = await before('0008-note-facts');
    const secret = await keyBefore0015(db, project.id);
    const sections = [
      {
        key: 'subjective',
        label: 'Subjective',
        text: 'Reports a cough.',
        sentences: [{ text: 'Reports a cough.', evidence: { turns: [1], context: [] } }],
      },
    ];
    // Written with the 0007 columns only, as a service on that version would have.
    await db
      .insertInto('notes')
      .values({
        id: 'note_old',
        project_id: project.id,
        environment: 'test',
        template_id: 'soap',
        template_version: 1,
        engine_name: 'extractive',
        engine_version: '1.1.0',
        fallback: null,
        input_sha256: 'a'.repeat(64),
        note_text: 'SUBJECTIVE\n\nReports a cough.',
        sections: JSON.stringify(sections),
        created_at: clock.now(),
        expires_at: clock.now() + 86_400_000,
      } as never)
      .execute();

    expect((await migrateToLatest(database)).applied).toContain('0008-note-facts');
    const app = await buildApp(testConfig(), {
      database: database,
      clock,
      logger: createLogger('silent'),
      rateLimitStore: new MemoryRateLimitStore(),
    });
    try {
      const read = await app.inject({
        method: 'GET',
        url: '/api/v1/notes/note_old?include=facts',
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json<Note>()).toMatchObject({
        id: 'note_old',
        sections,
        style: 'detailed',
        flags: [],
        omissions: [],
        warnings: [],
        verification: null,
        facts: [],
      });
      // And the upgraded table takes notes of this version.
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/notes',
        headers: { authorization: `Bearer ${secret}` },
        payload: { template_id: 'soap', conversation_text: 'Patient: A cough for three days.', style: 'concise' },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json<Note>().style).toBe('concise');
    } finally {
      await app.close();
    }
  });

  it('gives clinicians an empty profile and keeps one current document per kind after 0009', async () => {
    const { database, db, clock, repositories, project } = await before('0009-clinician-profile-document-revisions');
    const { partner, partnerKey } = await new PartnerService(repositories, clock, 0).create({
      projectId: project.id,
      environment: 'test',
      name: 'EMR',
      allowedOrigins: ['https://emr.example.com'],
    });
    const now = clock.now();
    // Written with the columns of the version before, as a service on it would have.
    await db
      .insertInto('clinicians')
      .values({
        id: 'cln_1',
        partner_id: partner.id,
        emr_user_id: 'emr-user-1',
        email: 'dr@clinic.example',
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await db
      .insertInto('encounters')
      .values({
        id: 'ses_1',
        project_id: project.id,
        environment: 'test',
        partner_id: partner.id,
        clinician_id: 'cln_1',
        emr_session_id: 'visit-1',
        patient_key: `widget_${partner.id}_MRN-1`,
        patient_id: 'MRN-1',
        patient_context: JSON.stringify({ patient: { id: 'MRN-1', name: 'Jane Doe' } }),
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    const document = (id: string, type: string, at: number, revision: number, fields: string | null) => ({
      id,
      encounter_id: 'ses_1',
      document_type: type,
      format: 'text',
      note_id: null,
      title: `${type} ${id}`,
      content: `${type} text`,
      fields,
      revision,
      created_at: at,
      updated_at: at,
      expires_at: now + 86_400_000,
    });
    const fields = JSON.stringify([{ key: 'plan', label: 'Plan', value: 'Edited plan.' }]);
    await db
      .insertInto('encounter_documents')
      .values([
        document('doc_old', 'referral', now - 2000, 1, null),
        document('doc_new', 'referral', now - 1000, 2, null),
        document('doc_form', 'form', now - 500, 2, fields),
      ] as never)
      .execute();
    const revision = (documentId: string, number: number) => ({
      document_id: documentId,
      revision: number,
      title: 'Title',
      content: `revision ${number}`,
      created_at: now - 100 + number,
    });
    await db
      .insertInto('encounter_document_revisions')
      .values([
        revision('doc_old', 1),
        revision('doc_new', 1),
        revision('doc_new', 2),
        revision('doc_form', 1),
        revision('doc_form', 2),
      ] as never)
      .execute();

    await migrateToLatest(database);
    expect((await db.selectFrom('clinicians').select('display_name').executeTakeFirst())?.display_name).toBeNull();
    const superseded = await db
      .selectFrom('encounter_documents')
      .select(['id', 'superseded_by'])
      .orderBy('id')
      .execute();
    expect(superseded).toEqual([
      { id: 'doc_form', superseded_by: null },
      { id: 'doc_new', superseded_by: null },
      { id: 'doc_old', superseded_by: 'doc_new' },
    ]);
    const revisions = await db
      .selectFrom('encounter_document_revisions')
      .select(['document_id', 'revision', 'origin', 'fields'])
      .orderBy('document_id')
      .orderBy('revision')
      .execute();
    expect(revisions).toEqual([
      { document_id: 'doc_form', revision: 1, origin: 'generated', fields: null },
      { document_id: 'doc_form', revision: 2, origin: 'edited', fields },
      { document_id: 'doc_new', revision: 1, origin: 'generated', fields: null },
      { document_id: 'doc_new', revision: 2, origin: 'edited', fields: null },
      { document_id: 'doc_old', revision: 1, origin: 'generated', fields: null },
    ]);

    // The service of this version serves what the previous one stored.
    const app = await buildApp(testConfig(), {
      database: database,
      clock,
      logger: createLogger('silent'),
      rateLimitStore: new MemoryRateLimitStore(),
    });
    try {
      const minted = await app.inject({
        method: 'POST',
        url: '/api/widget/token',
        headers: { 'x-partner-key': partnerKey },
        payload: { userEmail: 'dr@clinic.example', emrUserId: 'emr-user-1' },
      });
      const headers = { authorization: `Bearer ${minted.json<{ data: { token: string } }>().data.token}` };
      const session = await app.inject({ method: 'GET', url: '/api/widget/session', headers });
      expect(session.json<WidgetSessionInfo>().clinician.displayName).toBeNull();
      const listed = await app.inject({ method: 'GET', url: '/api/widget/encounters/ses_1/documents', headers });
      expect(listed.json<WidgetDocumentList>().documents.map((item) => [item.id, item.origin])).toEqual([
        ['doc_form', 'edited'],
        ['doc_new', 'edited'],
      ]);
      const again = await app.inject({
        method: 'POST',
        url: '/api/widget/encounters/ses_1/documents',
        headers,
        payload: { documentType: 'referral' },
      });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json<WidgetDocument>()).toMatchObject({
        id: 'doc_new',
        revision: 3,
        previousEdit: { revision: 2, content: 'revision 2' },
      });
      const oldPdf = await app.inject({
        method: 'POST',
        url: '/api/widget/encounters/ses_1/documents/doc_old/pdf',
        headers,
      });
      expect(oldPdf.statusCode, oldPdf.body).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('labels the segments of two-channel sessions stored before 0010 by channel, and serves and corrects them', async () => {
    const { database, db, clock, repositories, project } = await before('0011-transcript-review');
    const secret = await keyBefore0015(db, project.id);
    const now = clock.now();
    const session = (id: string, channels: number) => ({
      id,
      project_id: project.id,
      environment: 'test' as const,
      credential_kind: 'api_key' as const,
      api_key_id: null,
      partner_id: null,
      encounter_id: null,
      resume_token_hash: `hash-${id}`,
      audio_format: JSON.stringify({ encoding: 'pcm_s16le', sampleRate: 16000, channels }),
      language: 'en-US',
      created_at: now,
      last_seen_at: now,
      ended_at: null,
      end_reason: null,
      audio_ms: 4000,
    });
    await db
      .insertInto('realtime_sessions')
      .values([session('rts_stereo', 2), session('rts_mono', 1)])
      .execute();
    // Written with the columns of the version before, as a service on it would have.
    const segment = (sessionId: string, seq: number, channel: number, speaker: string, text: string) => ({
      session_id: sessionId,
      seq,
      id: `seg_00000${seq}`,
      text,
      start_ms: seq * 1000,
      end_ms: seq * 1000 + 800,
      channel,
      speaker,
      words: null,
      created_at: now,
    });
    await db
      .insertInto('transcript_segments')
      .values([
        segment('rts_stereo', 1, 0, 'clinician', 'do you take anything for it'),
        segment('rts_stereo', 2, 1, 'patient', 'ibuprofen four hundred milligrams'),
        segment('rts_mono', 1, 0, 'unknown', 'go forward ten meters'),
      ] as never)
      .execute();

    await migrateToLatest(database);
    const labels = await db
      .selectFrom('transcript_segments')
      .select(['session_id', 'seq', 'speaker_label'])
      .orderBy('session_id', 'desc')
      .orderBy('seq')
      .execute();
    expect(labels).toEqual([
      { session_id: 'rts_stereo', seq: 1, speaker_label: 'S1' },
      { session_id: 'rts_stereo', seq: 2, speaker_label: 'S2' },
      { session_id: 'rts_mono', seq: 1, speaker_label: null },
    ]);

    // The service of this version reads them with display text and applies corrections to them.
    const app = await buildApp(testConfig(), {
      database: database,
      clock,
      logger: createLogger('silent'),
      rateLimitStore: new MemoryRateLimitStore(),
    });
    try {
      const read = async (id: string) => {
        const response = await app.inject({
          method: 'GET',
          url: `/api/v1/realtime/sessions/${id}`,
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<RealtimeSessionResource>();
      };
      expect((await read('rts_stereo')).segments.map((item) => [item.speakerLabel, item.display])).toEqual([
        ['S1', 'Do you take anything for it?'],
        ['S2', 'Ibuprofen 400 mg.'],
      ]);
      expect((await read('rts_mono')).segments[0]).not.toHaveProperty('speakerLabel');
      await repositories.transcriptCorrections.insertRevision({
        session_id: 'rts_stereo',
        seq: 2,
        revision: 1,
        text: 'ibuprofen six hundred milligrams',
        speaker: null,
        clinician_id: 'cln_1',
        created_at: now,
      });
      expect((await read('rts_stereo')).segments[1]).toMatchObject({
        text: 'ibuprofen six hundred milligrams',
        display: 'Ibuprofen 600 mg.',
        revision: 1,
        original: { text: 'ibuprofen four hundred milligrams', speaker: 'patient' },
      });
    } finally {
      await app.close();
    }
  });

  it('keeps sessions stored before 0012 resumable: no cepstral means (a cold start), then the ones a lost socket stores', async () => {
    const { database, db, clock, project } = await before('0012-realtime-cepstral-means');
    const now = clock.now();
    // Written with the columns of the version before, as a service on it would have.
    await db
      .insertInto('realtime_sessions')
      .values({
        id: 'rts_before',
        project_id: project.id,
        environment: 'test',
        credential_kind: 'api_key',
        api_key_id: null,
        partner_id: null,
        encounter_id: null,
        resume_token_hash: 'hash-before',
        audio_format: JSON.stringify({ encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 }),
        language: 'en-US',
        created_at: now,
        last_seen_at: now,
        ended_at: null,
        end_reason: null,
        audio_ms: 4000,
        committed_ms: '[3800]',
      } as never)
      .execute();

    await migrateToLatest(database);
    const sessions = createRepositories(database).realtimeSessions;
    expect(await sessions.get('rts_before')).toMatchObject({ committed_ms: '[3800]', cepstral_means: null });
    await sessions.interrupted('rts_before', now + 1000, {
      audioMs: 5000,
      committedMs: [4900],
      cepstralMeans: [[48.5, 6.25]],
    });
    expect(await sessions.get('rts_before')).toMatchObject({ committed_ms: '[4900]', cepstral_means: '[[48.5,6.25]]' });
  });

  it('drops the stored partner origins that are not exact in 0014, keeping the others', async () => {
    const { database, db, project } = await before('0014-exact-partner-origins');
    const partner = (id: string, origins: string[]) => ({
      id,
      project_id: project.id,
      environment: 'test' as const,
      name: id,
      secret_hash: `hash-${id}`,
      secret_hint: '…',
      previous_secret_hash: null,
      previous_secret_expires_at: null,
      allowed_origins: JSON.stringify(origins),
      token_lifetime_seconds: 86_400,
      created_at: 1,
      revoked_at: null,
    });
    await db
      .insertInto('partners')
      .values([
        partner('ptn_mixed', ['https://*.example.com', 'https://emr.example.com', 'https://*']),
        partner('ptn_wild', ['https://*.example.com']),
        partner('ptn_exact', ['https://emr.example.com', 'http://localhost:3000']),
      ])
      .execute();

    await migrateToLatest(database);
    const partners = new PartnerService(createRepositories(database), new ManualClock(), 0);
    const origins = Object.fromEntries((await partners.list()).map((row) => [row.id, row.allowedOrigins]));
    expect(origins).toEqual({
      ptn_mixed: ['https://emr.example.com'],
      ptn_wild: [],
      ptn_exact: ['https://emr.example.com', 'http://localhost:3000'],
    });
    const stored = await db.selectFrom('partners').select(['id', 'allowed_origins']).orderBy('id').execute();
    expect(stored.map((row) => row.allowed_origins).join()).not.toContain('*');
    // The partner left with none is framed nowhere until it is given exact origins again.
    await partners.setOrigins('ptn_wild', ['https://wild.example.com']);
    expect((await partners.list()).find((row) => row.id === 'ptn_wild')?.allowedOrigins).toEqual([
      'https://wild.example.com',
    ]);
  });
});
