import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  pushNoteMessageSchema,
  REST_ENDPOINTS,
  type WidgetConsent,
  type WidgetEncounterState,
  type WidgetNote,
  type WidgetNoteList,
  type WidgetTranscript,
} from '@chartwright/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { hashSecret } from '../auth/secrets.js';
import { testConfig } from '../config/config.js';
import { TEST_DIALECTS } from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import {
  CHART,
  expectWidgetError,
  openWidget,
  setPatientContext,
  storeRealtimeSession,
  VISIT,
  widgetCall,
  type OpenWidget,
} from '@chartwright/testing/widget-encounters.js';

const DAY_MS = 86_400_000;

/** Host headings other than SOAP's: a custom template under the host's keys, one never discussed. */
const NOTE_CONFIG = {
  sections: [
    { key: 'hpi', label: 'History of present illness' },
    { key: 'exam', label: 'Examination' },
    { key: 'impression', label: 'Impression' },
    { key: 'plan', label: 'Plan' },
    { key: 'billing', label: 'Billing codes' },
  ],
};

const TRANSCRIPT_TEXT = [
  'Clinician: Good morning, what brings you in today?',
  'Patient: I have had a cough and a fever for three days.',
  'Clinician: Any shortness of breath?',
  'Patient: No, but my chest feels tight when I cough.',
  'Clinician: Your temperature is 38.2 degrees and your lungs sound clear. I think this is a viral upper respiratory infection. Drink plenty of fluids, take paracetamol for the fever and come back if you get worse in a week.',
].join('\n');

describe.each(TEST_DIALECTS)('widget encounter records on %s', (dialect) => {
  let h: Harness;
  let partner: { id: string; partnerKey: string };
  let widget: OpenWidget;
  beforeEach(async () => {
    h = await createHarness({ dialect, config: { notes: { ...testConfig().notes, retentionDays: 7 } } });
    partner = await h.createPartner();
    widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
  });
  afterEach(async () => {
    await h.close();
  });

  const encounterUrl = (suffix = '', sessionId = widget.sessionId) => `/api/widget/encounters/${sessionId}${suffix}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', suffix: string, payload?: unknown) =>
    widgetCall(h, widget.token, method, encounterUrl(suffix), payload);

  async function generateNote(payload: unknown = {}): Promise<WidgetNote> {
    const response = await call('POST', '/notes', payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<WidgetNote>();
  }

  describe('consent', () => {
    it('records who consented how and when, once, and shows it in the encounter', async () => {
      const first = await call('POST', '/consent', { method: ' Verbal ', note: 'Daughter present' });
      expect(first.statusCode, first.body).toBe(200);
      const consent = first.json<WidgetConsent>();
      expect(consent).toStrictEqual({
        method: 'verbal',
        note: 'Daughter present',
        clinicianId: widget.clinicianId,
        recordedAt: new Date(h.clock.now()).toISOString(),
      });

      h.clock.advance(60_000);
      const again = await call('POST', '/consent', { method: 'written' });
      expect(again.statusCode).toBe(200);
      expect(again.json<WidgetConsent>()).toStrictEqual(consent);
      expect((await call('GET', '')).json<WidgetEncounterState>().consent).toStrictEqual(consent);
    });

    it('is what the server asks before it mints a realtime token for the encounter', async () => {
      const mintRealtime = () =>
        widgetCall(h, widget.token, 'POST', '/api/widget/realtime-tokens', { sessionId: widget.sessionId });
      expectWidgetError(await mintRealtime(), 409, 'consent_required');
      expect((await call('POST', '/consent', { method: 'electronic' })).statusCode).toBe(200);
      expect((await mintRealtime()).statusCode).toBe(201);

      // Consent is per encounter: the next visit asks again.
      const next = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-2' });
      const refused = await widgetCall(h, next.token, 'POST', '/api/widget/realtime-tokens', {
        sessionId: next.sessionId,
      });
      expectWidgetError(refused, 409, 'consent_required');
    });

    it('is withdrawn: no realtime token until it is given again, the withdrawal shown and repeatable', async () => {
      const mintRealtime = () =>
        widgetCall(h, widget.token, 'POST', '/api/widget/realtime-tokens', { sessionId: widget.sessionId });
      expect((await call('POST', '/consent', { method: 'verbal' })).statusCode).toBe(200);
      const { token } = (await mintRealtime()).json<{ token: string }>();
      expect(await h.repositories.realtimeTokens.findBySecretHash(hashSecret(token))).toBeDefined();

      const withdrawn = await call('DELETE', '/consent');
      expect(withdrawn.statusCode, withdrawn.body).toBe(204);
      expect(withdrawn.body).toBe('');
      // Tokens already handed out stop working too (an open socket closes at its next credential check).
      expect(await h.repositories.realtimeTokens.findBySecretHash(hashSecret(token))).toBeUndefined();
      expectWidgetError(await mintRealtime(), 409, 'consent_required');
      expect((await call('GET', '')).json<WidgetEncounterState>().consent).toBeNull();
      expect((await call('DELETE', '/consent')).statusCode).toBe(204);

      expect((await call('POST', '/consent', { method: 'written' })).statusCode).toBe(200);
      expect((await mintRealtime()).statusCode).toBe(201);
    });

    it('is withdrawn only by the clinician whose encounter it is', async () => {
      expect((await call('POST', '/consent', { method: 'verbal' })).statusCode).toBe(200);
      const other = await openWidget(h, partner.partnerKey, { emrUserId: 'emr-user-2' });
      expectWidgetError(
        await widgetCall(h, other.token, 'DELETE', encounterUrl('/consent')),
        404,
        'encounter_not_found',
      );
      expect((await call('GET', '')).json<WidgetEncounterState>().consent).not.toBeNull();
    });

    it.each<[string, unknown, string[]]>([
      ['no method', {}, ['method']],
      ['an unknown method', { method: 'telepathy' }, ['method']],
      ['a note too long', { method: 'verbal', note: 'x'.repeat(1001) }, ['note']],
      ['an unknown field', { method: 'verbal', witness: 'Bob' }, ['witness']],
      ['an array', [], ['']],
    ])('refuses %s, naming the field', async (_name, body, fields) => {
      expectWidgetError(await call('POST', '/consent', body), 400, 'invalid_body', fields);
    });
  });

  describe('transcript', () => {
    it('returns every segment of every realtime session of the encounter, sessions by creation', async () => {
      const start = h.clock.now();
      // Stored out of order: the later-created session first.
      await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT.slice(4), {
        id: 'rts_b',
        createdAt: start + 60_000,
      });
      await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT.slice(0, 4), {
        id: 'rts_a',
        createdAt: start,
        endReason: 'stopped',
      });
      const other = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-2' });
      await storeRealtimeSession(h, partner.id, other.sessionId, [['patient', 'Another visit entirely.']], {
        id: 'rts_other',
      });
      await storeRealtimeSession(h, partner.id, null, [['patient', 'No encounter at all.']], { id: 'rts_none' });

      const response = await call('GET', '/transcript');
      expect(response.statusCode, response.body).toBe(200);
      const transcript = response.json<WidgetTranscript>();
      expect(transcript.sessionId).toBe(widget.sessionId);
      expect(transcript.realtimeSessions.map((session) => [session.id, session.status, session.resumable])).toEqual([
        ['rts_a', 'ended', false],
        ['rts_b', 'open', true],
      ]);
      expect(transcript.realtimeSessions[0]?.segments.map((segment) => segment.id)).toEqual([
        'seg_000001',
        'seg_000002',
        'seg_000003',
        'seg_000004',
      ]);
      const [first, second] = TRANSCRIPT_TEXT.split('\nClinician: Your');
      expect(transcript.text).toBe(`${first}\n\nClinician: Your${second}`);
    });

    it('labels unknown speakers only when some speaker is known, and is empty without audio', async () => {
      expect((await call('GET', '/transcript')).json<WidgetTranscript>()).toStrictEqual({
        sessionId: widget.sessionId,
        realtimeSessions: [],
        text: '',
      });
      await storeRealtimeSession(
        h,
        partner.id,
        widget.sessionId,
        [
          ['unknown', 'go forward'],
          ['unknown', 'ten meters'],
        ],
        { id: 'rts_mono' },
      );
      // Unlabelled segments read as prose, each ending where the speaker paused.
      expect((await call('GET', '/transcript')).json<WidgetTranscript>().text).toBe('Go forward. 10 meters.');
      await storeRealtimeSession(
        h,
        partner.id,
        widget.sessionId,
        [
          ['clinician', 'How is the knee?'],
          ['unknown', 'mumbling'],
        ],
        { id: 'rts_mixed', createdAt: h.clock.now() + 1 },
      );
      expect((await call('GET', '/transcript')).json<WidgetTranscript>().text).toBe(
        'Unknown: Go forward. 10 meters.\n\nClinician: How is the knee?\nUnknown: Mumbling.',
      );
    });
  });

  describe('notes', () => {
    beforeEach(async () => {
      await setPatientContext(h, widget, { ...CHART, noteConfig: NOTE_CONFIG });
      await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT, { id: 'rts_visit' });
    });

    it('writes the note from the stored transcript with the locked template, under the host keys', async () => {
      const note = await generateNote({ extraContext: 'Works as a teacher.' });
      expect(note).toMatchObject({
        sessionId: widget.sessionId,
        revision: 1,
        templateId: expect.stringMatching(/^headings_/) as unknown,
        transcript: TRANSCRIPT_TEXT,
        source: 'transcript',
        engine: { name: 'extractive' },
        fallback: null,
        expiresAt: new Date(h.clock.now() + 7 * DAY_MS).toISOString(),
      });
      expect(note.headings).toEqual(NOTE_CONFIG.sections);
      expect(Object.keys(note.sections)).toEqual(['hpi', 'exam', 'impression', 'plan', 'billing']);
      expect(note.sections['hpi']).toContain('cough');
      // The encounter's chart and patient reached the engine: the allergy goes, marked as from the
      // chart, to the nearest section the host defined, and the patient is "she".
      expect(note.sections['hpi']).toContain('Penicillin');
      expect(note.sections['hpi']).toContain('(from chart)');
      expect(note.sections['hpi']).toMatch(/\bShe\b/);
      expect(note.sections['exam']).toContain('Respiratory: Lungs sound clear.');
      expect(note.sections['exam']).toContain('Temperature: 38.2°C');
      // Nothing was said about billing: the key is there, empty, and its heading is not in the text.
      expect(note.sections['billing']).toBe('');
      expect(note.note).toMatch(/^HISTORY OF PRESENT ILLNESS\n\n/);
      expect(note.note).toContain(`EXAMINATION\n\n${note.sections['exam'] ?? ''}`);
      expect(note.note).not.toContain('BILLING');
      // Exactly what PUSH_NOTE carries.
      const push = pushNoteMessageSchema.parse({
        type: 'PUSH_NOTE',
        note: note.note,
        sections: note.sections,
        transcript: note.transcript,
        sessionId: note.sessionId,
        patientId: CHART.patient.id,
      });
      expect(push.sections).toEqual(note.sections);

      // The generated note is kept as a note of the partner's project environment too.
      const stored = await h.request({ method: 'GET', url: `/api/v1/notes/${note.id}`, key: h.project.testKey });
      expect(stored.statusCode).toBe(200);
    });

    it('uses the curated SOAP template under the host keys for SOAP headings, and SOAP without noteConfig', async () => {
      const soapKeys = {
        sections: ['Subjective', 'Objective', 'Assessment', 'Plan'].map((label) => ({ key: `x_${label}`, label })),
      };
      const soapWidget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-soap' });
      await setPatientContext(h, soapWidget, { ...CHART, noteConfig: soapKeys });
      const response = await widgetCall(h, soapWidget.token, 'POST', encounterUrl('/notes', soapWidget.sessionId), {
        conversationText: TRANSCRIPT_TEXT,
      });
      const note = response.json<WidgetNote>();
      expect(note.templateId).toBe('soap');
      expect(Object.keys(note.sections)).toEqual(['x_Subjective', 'x_Objective', 'x_Assessment', 'x_Plan']);
      expect(note.source).toBe('conversation_text');

      const plain = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-plain' });
      const defaulted = await widgetCall(h, plain.token, 'POST', encounterUrl('/notes', plain.sessionId), {
        conversationText: TRANSCRIPT_TEXT,
      });
      expect(defaulted.statusCode, defaulted.body).toBe(201);
      expect(defaulted.json<WidgetNote>()).toMatchObject({ templateId: 'soap' });
      expect(Object.keys(defaulted.json<WidgetNote>().sections)).toEqual([
        'subjective',
        'objective',
        'assessment',
        'plan',
      ]);
    });

    it('writes a typed visit from conversationText instead of the recording', async () => {
      const note = await generateNote({ conversationText: 'Doctor: How is the rash?\nPatient: It itches at night.' });
      expect(note.source).toBe('conversation_text');
      expect(note.transcript).toBe('Doctor: How is the rash?\nPatient: It itches at night.');
      expect(note.sections['hpi']).toContain('itches');
    });

    it('writes the visit sent as realtime segments, in the style asked, and answers the review fields', async () => {
      const note = await generateNote({
        style: 'concise',
        segments: [
          { id: 'seg_000001', speaker: 'clinician', text: 'How is the rash?', startMs: 0, endMs: 900, channel: 0 },
          {
            speaker: 'patient',
            text: 'It itches at night.',
            words: [
              { word: 'it', confidence: 0.9 },
              { word: 'itches', confidence: 0.35 },
              { word: 'at', confidence: 0.9 },
              { word: 'night', confidence: 0.92 },
            ],
          },
        ],
      });
      expect(note).toMatchObject({
        style: 'concise',
        source: 'conversation_text',
        transcript: 'Clinician: How is the rash?\nPatient: It itches at night.',
        // "itches" was heard at 0.35: what rests on it is flagged for the clinician, with the word.
        flags: [
          expect.objectContaining({
            code: 'low_confidence_word',
            words: [{ word: 'itches', confidence: 0.35, turn: 1 }],
          }) as unknown,
        ],
        warnings: [],
        // Every engine's note is verified: what it checked, and what it found the note leaves out.
        verification: { sentences: expect.any(Number) as unknown, dropped: 0, flagged: 0 },
      });
      expect(Array.isArray(note.omissions)).toBe(true);
      // Concise: the complaint in one line, not the patient's words.
      expect(note.sections['hpi']).toContain('She reports rash at night.');
      // Kept with the note: the encounter's list and the REST note say the same.
      const [listed] = (await call('GET', '/notes')).json<WidgetNoteList>().notes;
      expect(listed).toEqual(note);
      const stored = await h.request({ method: 'GET', url: `/api/v1/notes/${note.id}`, key: h.project.testKey });
      expect(stored.json<{ style: string }>().style).toBe('concise');
      // The recorded transcript stays the default, written detailed.
      expect(await generateNote()).toMatchObject({ style: 'detailed', source: 'transcript' });
    });

    it('refuses to choose another template, and bad bodies, naming the field', async () => {
      expectWidgetError(
        await call('POST', '/notes', { conversationText: 'Patient: A cough.', segments: [{ text: 'A cough.' }] }),
        400,
        'invalid_body',
        ['segments'],
      );
      expectWidgetError(
        await call('POST', '/notes', { segments: [{ text: 'a', speaker: 'nurse' }] }),
        400,
        'invalid_body',
        ['segments[0].speaker'],
      );
      expectWidgetError(await call('POST', '/notes', { style: 'short' }), 400, 'invalid_body', ['style']);
      expectWidgetError(
        await call('POST', '/notes', { segments: Array.from({ length: 3 }, () => ({ text: 'a'.repeat(100_000) })) }),
        413,
        'conversation_too_long',
        ['segments'],
      );
      expectWidgetError(await call('POST', '/notes', { template_id: 'soap' }), 400, 'invalid_body', ['template_id']);
      expectWidgetError(await call('POST', '/notes', { conversationText: '  ' }), 400, 'invalid_body', [
        'conversationText',
      ]);
      expectWidgetError(await call('POST', '/notes', { extraContext: 'x'.repeat(20_001) }), 400, 'invalid_body', [
        'extraContext',
      ]);
      expectWidgetError(
        await call('POST', '/notes', { conversationText: 'a'.repeat(250_001) }),
        413,
        'conversation_too_long',
        ['conversationText'],
      );
    });

    it('asks for a recording when the encounter has no transcript', async () => {
      const silent = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-silent' });
      expectWidgetError(
        await widgetCall(h, silent.token, 'POST', encounterUrl('/notes', silent.sessionId), {}),
        409,
        'transcript_empty',
      );
    });

    it('saves edited sections as revisions, refusing unknown keys, long texts and stale revisions', async () => {
      const note = await generateNote();
      h.clock.advance(5000);
      const edited = await call('PUT', `/notes/${note.id}`, {
        sections: { impression: '  Viral upper respiratory infection.  ', billing: 'J06.9' },
        revision: 1,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const saved = edited.json<WidgetNote>();
      expect(saved).toMatchObject({ id: note.id, revision: 2, updatedAt: new Date(h.clock.now()).toISOString() });
      expect(saved.sections).toEqual({
        ...note.sections,
        impression: 'Viral upper respiratory infection.',
        billing: 'J06.9',
      });
      expect(saved.note).toContain('EXAMINATION\n\n');
      expect(saved.note).toContain('\n\nIMPRESSION\n\nViral upper respiratory infection.\n\n');
      expect(saved.note).toMatch(/BILLING CODES\n\nJ06\.9$/);

      // Clearing a section leaves its key, empty, and drops its heading from the text.
      const cleared = (await call('PUT', `/notes/${note.id}`, { sections: { billing: '' } })).json<WidgetNote>();
      expect(cleared).toMatchObject({ revision: 3, sections: { billing: '' } });
      expect(cleared.note).not.toContain('BILLING');

      expectWidgetError(
        await call('PUT', `/notes/${note.id}`, { sections: { impression: 'Late edit.' }, revision: 2 }),
        409,
        'revision_conflict',
      );
      expectWidgetError(
        await call('PUT', `/notes/${note.id}`, { sections: { subjective: 'x', bogus: 'y', plan: 'ok' } }),
        400,
        'invalid_body',
        ['sections.subjective', 'sections.bogus'],
      );
      expectWidgetError(
        await call('PUT', `/notes/${note.id}`, { sections: { plan: 'x'.repeat(20_001) } }),
        400,
        'invalid_body',
        ['sections.plan'],
      );
      expectWidgetError(await call('PUT', `/notes/${note.id}`, { sections: {} }), 400, 'invalid_body', ['sections']);
      expectWidgetError(
        await call('PUT', `/notes/${note.id}`, { sections: { plan: 1 }, revision: 0 }),
        400,
        'invalid_body',
        ['sections.plan', 'revision'],
      );
      expectWidgetError(await call('PUT', '/notes/note_unknown', { sections: { plan: 'x' } }), 404, 'note_not_found');
      // Nothing refused changed the note.
      const [latest] = (await call('GET', '/notes')).json<WidgetNoteList>().notes;
      expect(latest).toStrictEqual(cleared);
    });

    it('records a push of the current revision, refusing a stale one, an unknown note and a missing revision', async () => {
      const note = await generateNote();
      await call('PUT', `/notes/${note.id}`, { sections: { plan: 'Rest.' }, revision: 1 });
      const pushed = await call('POST', `/notes/${note.id}/pushes`, { revision: 2 });
      expect(pushed.statusCode, pushed.body).toBe(204);
      expect(pushed.body).toBe('');
      expectWidgetError(await call('POST', `/notes/${note.id}/pushes`, { revision: 1 }), 409, 'revision_conflict');
      expectWidgetError(await call('POST', '/notes/note_unknown/pushes', { revision: 1 }), 404, 'note_not_found');
      expectWidgetError(await call('POST', `/notes/${note.id}/pushes`, {}), 400, 'invalid_body', ['revision']);
      expectWidgetError(
        await call('POST', `/notes/${note.id}/pushes`, { revision: 2, extra: true }),
        400,
        'invalid_body',
        ['extra'],
      );

      const document = (await call('POST', '/documents', { documentType: 'letter', noteId: note.id })).json<{
        id: string;
        revision: number;
      }>();
      const documentPushed = await call('POST', `/documents/${document.id}/pushes`, { revision: document.revision });
      expect(documentPushed.statusCode, documentPushed.body).toBe(204);
      expectWidgetError(
        await call('POST', `/documents/${document.id}/pushes`, { revision: document.revision + 1 }),
        409,
        'revision_conflict',
      );
      expectWidgetError(
        await call('POST', '/documents/doc_unknown/pushes', { revision: 1 }),
        404,
        'document_not_found',
      );
    });

    it('lists the encounter’s notes latest first, and only its own', async () => {
      const first = await generateNote();
      h.clock.advance(1000);
      const second = await generateNote({ conversationText: 'Doctor: Any better?\nPatient: Much better today.' });
      const other = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-2' });
      await widgetCall(h, other.token, 'POST', encounterUrl('/notes', other.sessionId), { conversationText: 'Hello.' });

      const listed = (await call('GET', '/notes')).json<WidgetNoteList>();
      expect(listed.notes.map((note) => note.id)).toEqual([second.id, first.id]);
      expectWidgetError(
        await widgetCall(h, other.token, 'PUT', encounterUrl(`/notes/${first.id}`, other.sessionId), {
          sections: { plan: 'x' },
        }),
        404,
        'note_not_found',
      );
    });
  });

  describe('restore', () => {
    it('returns the whole encounter to a relaunched widget for the same emrSessionId', async () => {
      await setPatientContext(h, widget, { ...CHART, noteConfig: NOTE_CONFIG });
      await call('POST', '/consent', { method: 'verbal' });
      const start = h.clock.now();
      await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT.slice(0, 3), {
        id: 'rts_first',
        createdAt: start,
        endReason: 'stopped',
      });
      await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT.slice(3), {
        id: 'rts_second',
        createdAt: start + 1,
      });
      const note = await generateNote();
      const edited = (
        await call('PUT', `/notes/${note.id}`, { sections: { plan: 'Fluids and rest.' } })
      ).json<WidgetNote>();
      const document = (await call('POST', '/documents', { documentType: 'referral' })).json<{ id: string }>();

      h.clock.advance(60_000);
      const relaunched = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
      expect(relaunched.sessionId).toBe(widget.sessionId);
      const response = await widgetCall(h, relaunched.token, 'GET', encounterUrl());
      expect(response.statusCode, response.body).toBe(200);
      const state = response.json<WidgetEncounterState>();
      expect(state).toMatchObject({
        sessionId: widget.sessionId,
        emrSessionId: 'visit-1',
        patientId: 'MRN-0042',
        patientContext: { patient: { id: 'MRN-0042', name: 'Jane Q. Doe', firstName: 'Jane', lastName: 'Doe' } },
        consent: { method: 'verbal', clinicianId: widget.clinicianId },
        resumableRealtimeSessionId: 'rts_second',
        createdAt: new Date(start).toISOString(),
      });
      expect(state.sectionKeys.map((section) => section.hostKey)).toEqual([
        'hpi',
        'exam',
        'impression',
        'plan',
        'billing',
      ]);
      expect(state.template.id).toBe(note.templateId);
      expect(state.transcript.realtimeSessions.map((session) => session.id)).toEqual(['rts_first', 'rts_second']);
      expect(state.transcript.text).toBe(TRANSCRIPT_TEXT.replace('\nPatient: No', '\n\nPatient: No'));
      expect(state.notes).toStrictEqual([edited]);
      expect(state.documents.map((stored) => stored.id)).toEqual([document.id]);
    });

    it('has nothing but the encounter for a fresh one', async () => {
      const state = (await call('GET', '')).json<WidgetEncounterState>();
      expect(state).toMatchObject({
        patientId: null,
        patientContext: null,
        template: { id: 'soap' },
        consent: null,
        transcript: { realtimeSessions: [], text: '' },
        resumableRealtimeSessionId: null,
        notes: [],
        documents: [],
      });
    });
  });

  describe('authorization', () => {
    /** Every encounter route, with a body that would be accepted, so only the ownership check can refuse it. */
    const encounterRoutes = REST_ENDPOINTS.filter(
      (spec) => spec.auth === 'widget_token' && spec.path.includes('{sessionId}'),
    );
    const BODIES: Record<string, unknown> = {
      setWidgetPatientContext: CHART,
      recordWidgetConsent: { method: 'verbal' },
      generateWidgetNote: { conversationText: 'Doctor: Hello.' },
      updateWidgetNote: { sections: { plan: 'x' } },
      recordWidgetNotePush: { revision: 1 },
      recordWidgetDocumentPush: { revision: 1 },
      createWidgetDocument: { documentType: 'letter' },
      updateWidgetDocument: { title: 'x' },
      correctWidgetTranscriptSegment: { text: 'x' },
      swapWidgetSpeakerRoles: { speakerLabel: 'S1' },
    };

    async function expectRefusedEverywhere(token: string, sessionId: string, status: number, code: string) {
      expect(encounterRoutes).toHaveLength(19);
      for (const spec of encounterRoutes) {
        const url = spec.path
          .replace('{sessionId}', sessionId)
          .replace('{noteId}', 'note_x')
          .replace('{documentId}', 'doc_x')
          .replace('{realtimeSessionId}', 'rts_x')
          .replace('{segmentId}', 'seg_000001');
        const response = await widgetCall(h, token, spec.method, url, BODIES[spec.operationId]);
        expectWidgetError(response, status, code);
      }
    }

    it('keeps an encounter from another partner’s widget', async () => {
      const otherPartner = await h.createPartner({ origins: ['https://other-emr.example.com'] });
      const stranger = await openWidget(h, otherPartner.partnerKey, { emrSessionId: 'visit-1' });
      await expectRefusedEverywhere(stranger.token, widget.sessionId, 404, 'encounter_not_found');
    });

    it('keeps an encounter from another clinician of the same partner', async () => {
      const colleague = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1', emrUserId: 'emr-user-2' });
      await expectRefusedEverywhere(colleague.token, widget.sessionId, 404, 'encounter_not_found');
    });

    it('keeps an encounter from the same clinician’s token for another EMR session', async () => {
      const otherVisit = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-2' });
      await expectRefusedEverywhere(otherVisit.token, widget.sessionId, 404, 'encounter_not_found');
      const audio = await widgetCall(h, otherVisit.token, 'POST', '/api/widget/realtime-tokens', {
        sessionId: widget.sessionId,
      });
      expectWidgetError(audio, 404, 'encounter_not_found');
      // Nothing was changed through it, and the token still opens its own visit's encounter.
      const state = (await call('GET', '')).json<WidgetEncounterState>();
      expect(state).toMatchObject({ patientId: null, consent: null, notes: [], documents: [] });
      const own = await widgetCall(h, otherVisit.token, 'GET', encounterUrl('', otherVisit.sessionId));
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json<WidgetEncounterState>().emrSessionId).toBe('visit-2');
    });

    it('lets a token without an emrSessionId reach each of its clinician’s encounters', async () => {
      const unscoped = await openWidget(h, partner.partnerKey);
      for (const sessionId of [widget.sessionId, unscoped.sessionId]) {
        const response = await widgetCall(h, unscoped.token, 'GET', encounterUrl('', sessionId));
        expect(response.statusCode, response.body).toBe(200);
      }
    });

    it('answers an unknown encounter the same way', async () => {
      await expectRefusedEverywhere(widget.token, 'ses_unknown', 404, 'encounter_not_found');
    });

    it('refuses an expired widget token, and every token of a revoked partner', async () => {
      const { token, expiresAt } = await h.mintWidgetToken(partner.partnerKey, {
        userEmail: 'dr.rivera@clinic.example',
        emrUserId: 'emr-user-1',
        emrSessionId: 'visit-1',
      });
      h.clock.advance(Date.parse(expiresAt) - h.clock.now());
      await expectRefusedEverywhere(token, widget.sessionId, 401, 'widget_token_expired');
      const fresh = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
      await h.partners.revoke(partner.id);
      await expectRefusedEverywhere(fresh.token, widget.sessionId, 401, 'partner_revoked');
    });
  });

  describe('deletion on demand', () => {
    it('deletes a note and a document of the encounter, and says when there is none', async () => {
      await setPatientContext(h, widget, CHART);
      const note = await generateNote({ conversationText: TRANSCRIPT_TEXT });
      const document = (await call('POST', '/documents', { documentType: 'letter', noteId: note.id })).json<{
        id: string;
      }>();

      expect((await call('DELETE', `/notes/${note.id}`)).statusCode).toBe(204);
      expect((await call('GET', '/notes')).json<WidgetNoteList>().notes).toEqual([]);
      expect(
        await h.repositories.notes.getScoped(note.id, { projectId: h.project.id, environment: 'test' }, 0),
      ).toBeUndefined();
      expectWidgetError(await call('DELETE', `/notes/${note.id}`), 404, 'note_not_found');
      // The letter written from it keeps its own text.
      expect((await call('GET', '/documents')).json<{ documents: unknown[] }>().documents).toHaveLength(1);

      expect((await call('DELETE', `/documents/${document.id}`)).statusCode).toBe(204);
      expect((await call('GET', '/documents')).json<{ documents: unknown[] }>().documents).toEqual([]);
      expectWidgetError(await call('DELETE', `/documents/${document.id}`), 404, 'document_not_found');
    });

    it('deletes the whole encounter, and nobody else can', async () => {
      await setPatientContext(h, widget, CHART);
      await call('POST', '/consent', { method: 'verbal' });
      await generateNote({ conversationText: TRANSCRIPT_TEXT });
      await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT, { id: 'rts_deleted' });
      const other = await openWidget(h, partner.partnerKey, { emrUserId: 'emr-user-2' });
      expectWidgetError(await widgetCall(h, other.token, 'DELETE', encounterUrl()), 404, 'encounter_not_found');
      const otherNote = await widgetCall(h, other.token, 'POST', encounterUrl('/notes', other.sessionId), {
        conversationText: 'Hi.',
      });
      expect(otherNote.statusCode).toBe(201);

      expect((await call('DELETE', '')).statusCode).toBe(204);
      expectWidgetError(await call('GET', ''), 404, 'encounter_not_found');
      expectWidgetError(await call('DELETE', ''), 404, 'encounter_not_found');
      expect(await h.repositories.realtimeSessions.get('rts_deleted')).toBeUndefined();
      // A relaunch of the EMR session starts a new, empty encounter.
      const relaunched = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
      expect(relaunched.sessionId).not.toBe(widget.sessionId);
      // The other clinician's encounter is untouched.
      expect(
        (await widgetCall(h, other.token, 'GET', encounterUrl('/notes', other.sessionId))).json<WidgetNoteList>().notes,
      ).toHaveLength(1);
    });
  });

  describe('retention', () => {
    it('keeps notes and documents NOTES_RETENTION_DAYS, and sweeps them and idle empty encounters', async () => {
      await setPatientContext(h, widget, CHART);
      await call('POST', '/consent', { method: 'verbal' });
      const note = await generateNote({ conversationText: TRANSCRIPT_TEXT });
      const document = (await call('POST', '/documents', { documentType: 'form' })).json<{ id: string }>();
      const idle = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-idle' });

      h.clock.advance(7 * DAY_MS - 1);
      // The widget token lasts a day: a week later the EMR has relaunched the widget.
      widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-1' });
      expect((await call('GET', '/notes')).json<WidgetNoteList>().notes).toHaveLength(1);
      h.clock.advance(1);
      expect((await call('GET', '/notes')).json<WidgetNoteList>().notes).toEqual([]);
      expect((await call('GET', '/documents')).json<{ documents: unknown[] }>().documents).toEqual([]);
      expectWidgetError(await call('PUT', `/notes/${note.id}`, { sections: { plan: 'x' } }), 404, 'note_not_found');
      expectWidgetError(await call('PUT', `/documents/${document.id}`, { title: 'x' }), 404, 'document_not_found');

      // What the hourly sweeps run: notes (taking their encounter notes along), documents, then encounters.
      const now = h.clock.now();
      expect(await h.repositories.notes.deleteExpired(now)).toBe(1);
      expect(await h.repositories.encounterDocuments.deleteExpired(now)).toBe(1);
      // The idle encounter goes; visit-1, empty now but relaunched a moment ago, stays its own week.
      const owner = { partnerId: partner.id, clinicianId: widget.clinicianId };
      expect(await h.repositories.encounters.deleteIdleAndEmpty(now - 7 * DAY_MS)).toBe(1);
      expect(await h.repositories.encounters.getOwned(idle.sessionId, owner)).toBeUndefined();
      expect(await h.repositories.encounters.getOwned(widget.sessionId, owner)).toBeDefined();
      h.clock.advance(7 * DAY_MS);
      expect(await h.repositories.encounters.deleteIdleAndEmpty(h.clock.now() - 7 * DAY_MS)).toBe(1);
      expect(await h.repositories.encounters.getOwned(widget.sessionId, owner)).toBeUndefined();
      expect(await h.repositories.encounterConsents.get(widget.sessionId)).toBeUndefined();
    });

    it('never sweeps an encounter that still holds a note, a document or a realtime session, or was reopened', async () => {
      const noted = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-noted' });
      await widgetCall(h, noted.token, 'POST', encounterUrl('/notes', noted.sessionId), { conversationText: 'Hi.' });
      const documented = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-documented' });
      await widgetCall(h, documented.token, 'POST', encounterUrl('/documents', documented.sessionId), {
        documentType: 'letter',
      });
      await storeRealtimeSession(h, partner.id, widget.sessionId, VISIT, { id: 'rts_kept' });
      const reopened = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-reopened' });
      h.clock.advance(30 * DAY_MS);
      // A relaunch a month later: the encounter is in use again.
      expect((await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-reopened' })).sessionId).toBe(
        reopened.sessionId,
      );
      expect(await h.repositories.encounters.deleteIdleAndEmpty(h.clock.now() - 7 * DAY_MS)).toBe(0);
    });
  });
});

describe('a widget that goes away while its note is written', () => {
  /** An OpenAI-compatible server that never answers, noting when a caller gives up on it. */
  const hanging: IncomingMessage[] = [];
  const provider = createServer((request) => {
    // The caller hanging up is what this test waits for, not a failure.
    request.on('error', () => undefined);
    hanging.push(request);
  });
  let h: Harness;
  afterEach(async () => {
    await h.close();
    provider.close();
  });

  it('stops the engine instead of letting it write a note nobody reads', async () => {
    provider.listen(0, '127.0.0.1');
    await once(provider, 'listening');
    const { port } = provider.address() as AddressInfo;
    h = await createHarness({
      config: {
        notes: {
          ...testConfig().notes,
          engine: 'openai',
          openai: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: null, model: 'fake', timeoutMs: 60_000 },
          retentionDays: 30,
        },
      },
    });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const partner = await h.createPartner();
    const widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-abort' });

    const { port: appPort } = h.app.server.address() as AddressInfo;
    const call = httpRequest({
      host: '127.0.0.1',
      port: appPort,
      method: 'POST',
      path: `/api/widget/encounters/${widget.sessionId}/notes`,
      headers: { authorization: `Bearer ${widget.token}`, 'content-type': 'application/json' },
    });
    call.on('error', () => undefined);
    call.end(JSON.stringify({ conversationText: TRANSCRIPT_TEXT }));
    // Before the provider sees the request the service parses the transcript and builds the
    // prompt's fact sheet: on a loaded machine that can take longer than the poll's default second.
    await expect.poll(() => hanging.length, { timeout: 15_000 }).toBe(1);

    const providerClosed = new Promise((resolve) => hanging[0]?.on('close', resolve));
    call.destroy();
    await providerClosed;
    expect(await h.repositories.encounterNotes.list(widget.sessionId, h.clock.now())).toEqual([]);
  });
});
