import type {
  TranscriptSegment,
  WidgetConsent,
  WidgetDocument,
  WidgetNote,
  WidgetSessionInfo,
} from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import type { PatientSummary } from './patient-summary.js';
import { transition, type WidgetEvent } from './transition.js';
import {
  IDLE_RECORDER,
  INITIAL_STATE,
  transcriptLineOf,
  type ActiveEncounter,
  type WidgetPhase,
  type WidgetState,
  type Workspace,
} from './widget-state.js';

const SESSION: WidgetSessionInfo = {
  clinician: { id: 'cln_1', email: 'dr@clinic.example', emrUserId: 'emr-1', displayName: null },
  partner: { id: 'ptn_1', name: 'Clinic EMR' },
  environment: 'test',
  allowedOrigins: ['https://emr.example.com'],
  emrSessionId: 'visit-1',
  expiresAt: '2026-01-01T01:00:00.000Z',
  recognizer: { kind: 'embedded', name: 'PocketSphinx' },
};
const REFRESHED: WidgetSessionInfo = { ...SESSION, expiresAt: '2026-01-01T02:00:00.000Z' };
const PATIENT: PatientSummary = {
  id: 'MRN-1',
  name: 'Ana Example',
  age: null,
  dob: null,
  gender: null,
  allergies: [],
  medications: [],
};
const CONSENT: WidgetConsent = {
  method: 'verbal',
  note: null,
  clinicianId: 'cln_1',
  recordedAt: '2026-01-01T00:00:00Z',
};
const SEGMENT: TranscriptSegment = {
  id: 'seg_000001',
  text: 'a cough for three days',
  display: 'A cough for 3 days.',
  displayTokens: [],
  startMs: 0,
  endMs: 1200,
  channel: 1,
  speaker: 'patient',
  speakerLabel: 'S2',
};
const LINE = transcriptLineOf('rts_1', SEGMENT);
const OTHER_LINE = transcriptLineOf('rts_2', SEGMENT);
// Only what the transitions read of a note and a document.
const NOTE = {
  id: 'note_1',
  revision: 1,
  sections: { story: 'Cough.', plan: '' },
} as Partial<WidgetNote> as WidgetNote;
const NOTE_2: WidgetNote = { ...NOTE, revision: 2, sections: { story: 'Cough.', plan: 'Rest.' } };
const LETTER = { id: 'doc_1', revision: 1, title: 'Letter' } as Partial<WidgetDocument> as WidgetDocument;
const LETTER_2: WidgetDocument = { ...LETTER, revision: 2, title: 'Letter to Ana' };
const FORM = { id: 'doc_2', revision: 1, title: 'Form' } as Partial<WidgetDocument> as WidgetDocument;

const encounter = (change: Partial<ActiveEncounter> = {}): ActiveEncounter => ({
  status: 'active',
  encounterId: 'ses_1',
  patient: null,
  consent: null,
  transcript: [],
  partial: '',
  note: null,
  noteDraft: {},
  documents: [],
  sentNoteRevision: null,
  sentDocuments: {},
  ...change,
});
/** An encounter under way: its patient, consent, a line, a note sent, a document sent. */
const WORKED = encounter({
  patient: PATIENT,
  consent: CONSENT,
  transcript: [LINE],
  partial: 'and a',
  note: NOTE,
  noteDraft: { ...NOTE.sections },
  documents: [LETTER],
  sentNoteRevision: 1,
  sentDocuments: { doc_1: 1 },
});
const workspace = (change: Partial<Workspace> = {}): Workspace => ({
  widgetSession: SESSION,
  awaitingPatient: true,
  microphone: 'unknown',
  recorder: IDLE_RECORDER,
  busy: null,
  encounter: null,
  ...change,
});
const at = (phase: WidgetPhase, change: Partial<WidgetState> = {}): WidgetState => ({
  ...INITIAL_STATE,
  phase,
  ...change,
});
const ready = (change: Partial<Workspace> = {}, top: Partial<WidgetState> = {}): WidgetState =>
  at({ kind: 'ready', workspace: workspace(change) }, top);
const recording = (change: Partial<Workspace['recorder']> = {}) => ({
  ...IDLE_RECORDER,
  status: 'recording' as const,
  elapsedMs: 500,
  runningSince: 1000,
  level: 0.3,
  ...change,
});
const FAILURE = { kind: 'error', message: 'The service cannot be reached.' } as const;

type Row = [name: string, from: WidgetState, event: WidgetEvent, to: WidgetState | 'unchanged'];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function check([, from, event, to]: Row): void {
  const after = transition(deepFreeze(from), event);
  if (to === 'unchanged') expect(after).toBe(from);
  else expect(after).toStrictEqual(to);
}

describe('the widget session', () => {
  it.each<Row>([
    [
      'trying again clears the notice',
      at({ kind: 'unreachable' }, { notice: FAILURE }),
      { type: 'starting' },
      at({ kind: 'starting' }),
    ],
    ['a refused token', INITIAL_STATE, { type: 'unauthorized' }, at({ kind: 'unauthorized' })],
    [
      'no service',
      INITIAL_STATE,
      { type: 'unreachable', message: FAILURE.message },
      at({ kind: 'unreachable' }, { notice: FAILURE }),
    ],
    ['the service accepts the token', INITIAL_STATE, { type: 'started', widgetSession: SESSION }, ready()],
    [
      'a refresh brings a widget whose token was over at start to work',
      at({ kind: 'expired', workspace: null }),
      { type: 'token_refreshed', widgetSession: SESSION },
      ready(),
    ],
    [
      'a refresh after expiry: back to the same workspace',
      at({ kind: 'expired', workspace: workspace({ encounter: WORKED }) }),
      { type: 'token_refreshed', widgetSession: REFRESHED },
      ready({ widgetSession: REFRESHED, encounter: WORKED }),
    ],
    [
      'a refresh while working',
      ready({ encounter: WORKED }),
      { type: 'token_refreshed', widgetSession: REFRESHED },
      ready({ widgetSession: REFRESHED, encounter: WORKED }),
    ],
    [
      'a refresh leaves a closed widget closed',
      at({ kind: 'closed', workspace: workspace() }),
      { type: 'token_refreshed', widgetSession: REFRESHED },
      at({ kind: 'closed', workspace: workspace({ widgetSession: REFRESHED }) }),
    ],
    [
      'a refresh before the start has answered',
      INITIAL_STATE,
      { type: 'token_refreshed', widgetSession: SESSION },
      'unchanged',
    ],
    [
      'the clinician’s profile saved',
      ready(),
      { type: 'profile_saved', clinician: { ...SESSION.clinician, displayName: 'Dr. Ana Rivera' } },
      ready({ widgetSession: { ...SESSION, clinician: { ...SESSION.clinician, displayName: 'Dr. Ana Rivera' } } }),
    ],
    ['a token over at start', INITIAL_STATE, { type: 'expired' }, at({ kind: 'expired', workspace: null })],
    [
      'a token over while working keeps the workspace',
      ready({ encounter: WORKED }),
      { type: 'expired' },
      at({ kind: 'expired', workspace: workspace({ encounter: WORKED }) }),
    ],
    [
      'CLOSE_WIDGET keeps the workspace',
      ready({ encounter: WORKED }),
      { type: 'closed' },
      at({ kind: 'closed', workspace: workspace({ encounter: WORKED }) }),
    ],
    [
      'CLOSE_WIDGET after a token over at start',
      at({ kind: 'expired', workspace: null }),
      { type: 'closed' },
      at({ kind: 'closed', workspace: null }),
    ],
  ])('%s', (...row) => check(row));
});

describe('the encounter and its patient', () => {
  it.each<Row>([
    ['opening one', ready(), { type: 'encounter_opened', encounterId: 'ses_1' }, ready({ encounter: encounter() })],
    [
      'opening another clears everything of the first, not the recorder, the microphone or what is in flight',
      ready({ awaitingPatient: false, microphone: 'allowed', busy: 'generating', encounter: WORKED }),
      { type: 'encounter_opened', encounterId: 'ses_2' },
      ready({
        awaitingPatient: false,
        microphone: 'allowed',
        busy: 'generating',
        encounter: encounter({ encounterId: 'ses_2' }),
      }),
    ],
    ['no workspace, no encounter', INITIAL_STATE, { type: 'encounter_opened', encounterId: 'ses_1' }, 'unchanged'],
    [
      'restoring shows what it holds, with the note’s sections to edit',
      ready({ encounter: encounter() }),
      {
        type: 'encounter_restored',
        encounterId: 'ses_1',
        patient: PATIENT,
        consent: CONSENT,
        transcript: [LINE],
        note: NOTE,
        documents: [LETTER],
      },
      ready({
        awaitingPatient: false,
        encounter: encounter({
          patient: PATIENT,
          consent: CONSENT,
          transcript: [LINE],
          note: NOTE,
          noteDraft: { ...NOTE.sections },
          documents: [LETTER],
        }),
      }),
    ],
    [
      'restoring one without a patient still waits for it, and keeps what was sent from here',
      ready({ encounter: WORKED }),
      {
        type: 'encounter_restored',
        encounterId: 'ses_1',
        patient: null,
        consent: null,
        transcript: [],
        note: null,
        documents: [],
      },
      ready({
        encounter: encounter({ partial: 'and a', sentNoteRevision: 1, sentDocuments: { doc_1: 1 } }),
      }),
    ],
    [
      'restoring after a mismatch',
      ready({ encounter: { status: 'mismatched', encounterId: 'ses_1' } }),
      {
        type: 'encounter_restored',
        encounterId: 'ses_1',
        patient: PATIENT,
        consent: CONSENT,
        transcript: [],
        note: null,
        documents: [],
      },
      ready({ awaitingPatient: false, encounter: encounter({ patient: PATIENT, consent: CONSENT }) }),
    ],
    [
      'the EMR’s patient',
      ready({ encounter: encounter() }),
      { type: 'patient_accepted', patient: PATIENT },
      ready({ awaitingPatient: false, encounter: encounter({ patient: PATIENT }) }),
    ],
    [
      'a patient opens a closed widget again',
      at({ kind: 'closed', workspace: workspace({ encounter: encounter() }) }),
      { type: 'patient_accepted', patient: PATIENT },
      ready({ awaitingPatient: false, encounter: encounter({ patient: PATIENT }) }),
    ],
    [
      'a patient leaves an expired widget expired',
      at({ kind: 'expired', workspace: workspace({ encounter: encounter() }) }),
      { type: 'patient_accepted', patient: PATIENT },
      at({
        kind: 'expired',
        workspace: workspace({ awaitingPatient: false, encounter: encounter({ patient: PATIENT }) }),
      }),
    ],
    [
      'the encounter’s own patient after a mismatch',
      ready({ encounter: { status: 'mismatched', encounterId: 'ses_1' } }),
      { type: 'patient_accepted', patient: PATIENT },
      ready({ awaitingPatient: false, encounter: encounter({ patient: PATIENT }) }),
    ],
    [
      'refused patient details: the clinician is told what is wrong, the patient shown stays',
      ready({ awaitingPatient: false, encounter: encounter({ patient: PATIENT }) }),
      { type: 'patient_refused', problems: ['patient.id: must not be empty'] },
      ready(
        { awaitingPatient: false, encounter: encounter({ patient: PATIENT }) },
        { patientProblems: ['patient.id: must not be empty'] },
      ),
    ],
    [
      'an accepted patient clears what was wrong with the last one',
      ready({ encounter: encounter() }, { patientProblems: ['patient.name: is required'] }),
      { type: 'patient_accepted', patient: PATIENT },
      ready({ awaitingPatient: false, encounter: encounter({ patient: PATIENT }) }),
    ],
    ['a patient with no encounter', ready(), { type: 'patient_accepted', patient: PATIENT }, 'unchanged'],
    [
      'another patient than the encounter’s: nothing of it is kept but its id',
      ready({ awaitingPatient: false, encounter: WORKED }),
      { type: 'patient_mismatch' },
      ready({ awaitingPatient: false, encounter: { status: 'mismatched', encounterId: 'ses_1' } }),
    ],
    [
      'SET_CONTEXT text, in any phase',
      INITIAL_STATE,
      { type: 'context_set', extraContext: 'Works nights.' },
      at({ kind: 'starting' }, { extraContext: 'Works nights.' }),
    ],
  ])('%s', (...row) => check(row));
});

describe('consent, the microphone and the recording', () => {
  const withEncounter = (change: Partial<ActiveEncounter>, ws: Partial<Workspace> = {}) =>
    ready({ ...ws, encounter: encounter(change) });
  it.each<Row>([
    [
      'consent recorded',
      withEncounter({ patient: PATIENT }),
      { type: 'consent_recorded', consent: CONSENT },
      withEncounter({ patient: PATIENT, consent: CONSENT }),
    ],
    [
      'the service wants consent again',
      withEncounter({ consent: CONSENT }),
      { type: 'consent_required' },
      withEncounter({ consent: null }),
    ],
    ['a microphone problem', ready(), { type: 'microphone', microphone: 'denied' }, ready({ microphone: 'denied' })],
    [
      'starting clears the utterance and the notice',
      { ...withEncounter({ partial: 'and a' }, { recorder: { ...IDLE_RECORDER, elapsedMs: 900 } }), notice: FAILURE },
      { type: 'recording_starting' },
      withEncounter({}, { recorder: { ...IDLE_RECORDER, status: 'starting' } }),
    ],
    [
      'recording, and the microphone works',
      ready({ recorder: { ...IDLE_RECORDER, status: 'starting' } }),
      { type: 'recording_started', at: 1000 },
      ready({ microphone: 'allowed', recorder: recording({ elapsedMs: 0, level: 0 }) }),
    ],
    [
      'a start tried again says why and which attempt',
      ready({ recorder: { ...IDLE_RECORDER, status: 'starting' } }),
      { type: 'recording_start_retrying', retry: { cause: 'capacity', attempt: 3, of: 17 } },
      ready({
        recorder: { ...IDLE_RECORDER, status: 'starting', startRetry: { cause: 'capacity', attempt: 3, of: 17 } },
      }),
    ],
    [
      'recording once a place was free forgets the retries',
      ready({
        recorder: { ...IDLE_RECORDER, status: 'starting', startRetry: { cause: 'capacity', attempt: 3, of: 17 } },
      }),
      { type: 'recording_started', at: 1000 },
      ready({ microphone: 'allowed', recorder: recording({ elapsedMs: 0, level: 0 }) }),
    ],
    [
      'a late retry after the start is over changes nothing',
      ready({ recorder: recording() }),
      { type: 'recording_start_retrying', retry: { cause: 'capacity', attempt: 3, of: 17 } },
      ready({ recorder: recording() }),
    ],
    [
      'a recording that could not start',
      ready({ recorder: { ...IDLE_RECORDER, status: 'starting' } }),
      { type: 'recording_not_started' },
      ready(),
    ],
    [
      'pausing banks the time so far',
      ready({ recorder: recording() }),
      { type: 'recording_paused', at: 4000 },
      ready({ recorder: { ...IDLE_RECORDER, status: 'paused', elapsedMs: 3500 } }),
    ],
    ['pausing while not recording', ready(), { type: 'recording_paused', at: 4000 }, 'unchanged'],
    [
      'resuming starts a new stretch',
      ready({ recorder: { ...IDLE_RECORDER, status: 'paused', elapsedMs: 3500 } }),
      { type: 'recording_resumed', at: 9000 },
      ready({ recorder: recording({ elapsedMs: 3500, runningSince: 9000, level: 0 }) }),
    ],
    [
      'resuming while recording',
      ready({ recorder: recording() }),
      { type: 'recording_resumed', at: 9000 },
      'unchanged',
    ],
    [
      'stopping banks the time so far',
      ready({ recorder: recording({ connection: 'reconnecting' }) }),
      { type: 'recording_stopping', at: 2000 },
      ready({ recorder: { ...IDLE_RECORDER, status: 'stopping', elapsedMs: 1500, connection: 'reconnecting' } }),
    ],
    [
      'stopped: back to idle and online, no utterance left, the time shown',
      withEncounter(
        { partial: 'and a' },
        { recorder: { ...IDLE_RECORDER, status: 'stopping', elapsedMs: 1500, connection: 'reconnecting' } },
      ),
      { type: 'recording_stopped' },
      withEncounter({}, { recorder: { ...IDLE_RECORDER, elapsedMs: 1500 } }),
    ],
    [
      'the device went away',
      ready({ microphone: 'allowed' }),
      { type: 'recording_lost', deviceLost: true, message: 'The microphone stopped.' },
      ready({ microphone: 'unavailable' }, { notice: { kind: 'error', message: 'The microphone stopped.' } }),
    ],
    [
      'the connection could not be restored',
      ready({ microphone: 'allowed' }),
      { type: 'recording_lost', deviceLost: false, message: 'The recording stopped.' },
      ready({ microphone: 'allowed' }, { notice: { kind: 'error', message: 'The recording stopped.' } }),
    ],
    [
      'an utterance in progress',
      withEncounter({}),
      { type: 'partial', text: 'a cou' },
      withEncounter({ partial: 'a cou' }),
    ],
    [
      'its final replaces it',
      withEncounter({ partial: 'a cou' }),
      { type: 'final', line: LINE },
      withEncounter({ transcript: [LINE] }),
    ],
    [
      'a correction of a line of its realtime session, the same segment id of another left alone',
      withEncounter({ transcript: [LINE, OTHER_LINE] }),
      {
        type: 'transcript_corrected',
        realtimeSessionId: 'rts_1',
        segments: [{ ...SEGMENT, speaker: 'clinician' }],
      },
      withEncounter({
        transcript: [{ ...LINE, segment: { ...SEGMENT, speaker: 'clinician' } }, OTHER_LINE],
      }),
    ],
    [
      'a final with nothing shown',
      ready({ encounter: { status: 'mismatched', encounterId: 'ses_1' } }),
      { type: 'final', line: LINE },
      'unchanged',
    ],
    [
      'the level',
      ready({ recorder: recording() }),
      { type: 'level', level: 0.5 },
      ready({ recorder: recording({ level: 0.5 }) }),
    ],
    [
      'the socket lost',
      ready({ recorder: recording() }),
      { type: 'connection', connection: 'reconnecting' },
      ready({ recorder: recording({ connection: 'reconnecting' }) }),
    ],
  ])('%s', (...row) => check(row));
});

describe('the note and documents', () => {
  const withEncounter = (change: Partial<ActiveEncounter>) => ready({ encounter: encounter(change) });
  it.each<Row>([
    [
      'a note written, its sections to edit, the last send still marked',
      withEncounter({ sentNoteRevision: 1 }),
      { type: 'note_written', note: NOTE },
      withEncounter({ note: NOTE, noteDraft: { ...NOTE.sections }, sentNoteRevision: 1 }),
    ],
    [
      'a section edited',
      withEncounter({ note: NOTE, noteDraft: { ...NOTE.sections } }),
      { type: 'note_section_edited', key: 'plan', text: 'Rest.' },
      withEncounter({ note: NOTE, noteDraft: { story: 'Cough.', plan: 'Rest.' } }),
    ],
    [
      'the note saved and sent',
      withEncounter({ note: NOTE, noteDraft: { story: 'Cough.', plan: 'Rest.' } }),
      { type: 'note_sent', note: NOTE_2 },
      withEncounter({ note: NOTE_2, noteDraft: { ...NOTE_2.sections }, sentNoteRevision: 2 }),
    ],
    [
      'a document written goes first',
      withEncounter({ documents: [LETTER] }),
      { type: 'document_created', document: FORM },
      withEncounter({ documents: [FORM, LETTER] }),
    ],
    [
      'a kind written again: its new revision replaces it, and goes first',
      withEncounter({ documents: [FORM, LETTER] }),
      { type: 'document_created', document: LETTER_2 },
      withEncounter({ documents: [LETTER_2, FORM] }),
    ],
    [
      'an edit restored: the document in its place',
      withEncounter({ documents: [FORM, LETTER] }),
      { type: 'document_saved', document: LETTER_2 },
      withEncounter({ documents: [FORM, LETTER_2] }),
    ],
    [
      'a document saved and sent',
      withEncounter({ documents: [FORM, LETTER], sentDocuments: { doc_2: 1 } }),
      { type: 'document_sent', document: LETTER_2 },
      withEncounter({ documents: [FORM, LETTER_2], sentDocuments: { doc_2: 1, doc_1: 2 } }),
    ],
  ])('%s', (...row) => check(row));
});

describe('calls in flight, notices and the network', () => {
  it.each<Row>([
    [
      'a call starts: an earlier notice goes',
      ready({}, { notice: FAILURE }),
      { type: 'busy', busy: 'document:doc_1' },
      ready({ busy: 'document:doc_1' }),
    ],
    ['it answers', ready({ busy: 'consent' }), { type: 'settled' }, ready()],
    [
      'it failed',
      ready({ busy: 'consent' }),
      { type: 'failed', message: FAILURE.message },
      ready({ busy: 'consent' }, { notice: FAILURE }),
    ],
    ['the notice dismissed', ready({}, { notice: FAILURE }), { type: 'notice_dismissed' }, ready()],
    ['offline', ready(), { type: 'online', online: false }, ready({}, { online: false })],
  ])('%s', (...row) => check(row));
});
