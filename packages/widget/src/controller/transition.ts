import type {
  TranscriptSegment,
  WidgetClinician,
  WidgetConsent,
  WidgetDocument,
  WidgetNote,
  WidgetSessionInfo,
} from '@chartwright/protocol';

import type { PatientSummary } from './patient-summary.js';
import {
  IDLE_RECORDER,
  elapsedMs,
  workspaceOf,
  type ActiveEncounter,
  type Busy,
  type MicrophoneState,
  type RecorderState,
  type StartRetry,
  type TranscriptLine,
  type WidgetState,
  type Workspace,
} from './widget-state.js';

/** Everything that changes the widget's state; `at` is the monotonic clock when it happened. */
export type WidgetEvent =
  // The widget session.
  | { type: 'starting' }
  | { type: 'unauthorized' }
  | { type: 'unreachable'; message: string }
  | { type: 'started'; widgetSession: WidgetSessionInfo }
  | { type: 'token_refreshed'; widgetSession: WidgetSessionInfo }
  | { type: 'profile_saved'; clinician: WidgetClinician }
  | { type: 'expired' }
  | { type: 'closed' }
  // The encounter, its patient and the EMR's context.
  | { type: 'encounter_opened'; encounterId: string }
  | {
      type: 'encounter_restored';
      encounterId: string;
      patient: PatientSummary | null;
      consent: WidgetConsent | null;
      transcript: TranscriptLine[];
      note: WidgetNote | null;
      documents: WidgetDocument[];
    }
  | { type: 'patient_accepted'; patient: PatientSummary }
  | { type: 'patient_mismatch' }
  | { type: 'patient_refused'; problems: readonly string[] }
  | { type: 'context_set'; extraContext: string }
  // Consent, the microphone and the recording.
  | { type: 'consent_recorded'; consent: WidgetConsent }
  | { type: 'consent_required' }
  | { type: 'microphone'; microphone: MicrophoneState }
  | { type: 'recording_starting' }
  | { type: 'recording_started'; at: number }
  | { type: 'recording_start_retrying'; retry: StartRetry }
  | { type: 'recording_not_started' }
  | { type: 'recording_paused'; at: number }
  | { type: 'recording_resumed'; at: number }
  | { type: 'recording_stopping'; at: number }
  | { type: 'recording_stopped' }
  | { type: 'recording_lost'; deviceLost: boolean; message: string }
  | { type: 'partial'; text: string }
  | { type: 'final'; line: TranscriptLine }
  // The clinician's corrections: the segments as the service now presents them.
  | { type: 'transcript_corrected'; realtimeSessionId: string; segments: readonly TranscriptSegment[] }
  | { type: 'level'; level: number }
  | { type: 'connection'; connection: RecorderState['connection'] }
  // The note and documents.
  | { type: 'note_written'; note: WidgetNote }
  | { type: 'note_section_edited'; key: string; text: string }
  | { type: 'note_sent'; note: WidgetNote }
  | { type: 'document_created'; document: WidgetDocument }
  | { type: 'document_saved'; document: WidgetDocument }
  | { type: 'document_sent'; document: WidgetDocument }
  // Calls in flight, notices, the network.
  | { type: 'busy'; busy: Busy }
  | { type: 'settled' }
  | { type: 'failed'; message: string }
  | { type: 'notice_dismissed' }
  | { type: 'online'; online: boolean };

type Handlers = {
  [Type in WidgetEvent['type']]: (state: WidgetState, event: Extract<WidgetEvent, { type: Type }>) => WidgetState;
};

/**
 * The one way the state changes: the state after `event`. An event that does not apply (an
 * encounter change with no workspace, a pause while not recording) leaves the very same state.
 */
export function transition(state: WidgetState, event: WidgetEvent): WidgetState {
  const handle = HANDLERS[event.type] as (state: WidgetState, event: WidgetEvent) => WidgetState;
  return handle(state, event);
}

function emptyEncounter(encounterId: string): ActiveEncounter {
  return {
    status: 'active',
    encounterId,
    patient: null,
    consent: null,
    transcript: [],
    partial: '',
    note: null,
    noteDraft: {},
    documents: [],
    sentNoteRevision: null,
    sentDocuments: {},
  };
}

function withWidgetSession(workspace: Workspace | null, widgetSession: WidgetSessionInfo): Workspace {
  if (workspace !== null) return { ...workspace, widgetSession };
  return {
    widgetSession,
    awaitingPatient: true,
    microphone: 'unknown',
    recorder: IDLE_RECORDER,
    busy: null,
    encounter: null,
  };
}

function inWorkspace(state: WidgetState, change: (workspace: Workspace) => Workspace): WidgetState {
  const { phase } = state;
  if (!(phase.kind === 'ready' || phase.kind === 'expired' || phase.kind === 'closed') || phase.workspace === null) {
    return state;
  }
  const workspace = change(phase.workspace);
  return workspace === phase.workspace ? state : { ...state, phase: { ...phase, workspace } };
}

function inEncounter(state: WidgetState, change: (encounter: ActiveEncounter) => ActiveEncounter): WidgetState {
  return inWorkspace(state, (workspace) =>
    workspace.encounter?.status === 'active' ? { ...workspace, encounter: change(workspace.encounter) } : workspace,
  );
}

function inRecorder(state: WidgetState, change: (recorder: RecorderState) => RecorderState): WidgetState {
  return inWorkspace(state, (workspace) => {
    const recorder = change(workspace.recorder);
    return recorder === workspace.recorder ? workspace : { ...workspace, recorder };
  });
}

/** The recorder between stretches: the time so far banked, the meter at rest. */
function halted(recorder: RecorderState, status: 'paused' | 'stopping', at: number): RecorderState {
  return { ...recorder, status, elapsedMs: elapsedMs(recorder, at), runningSince: null, level: 0 };
}

const error = (message: string) => ({ kind: 'error', message }) as const;

const SESSION_HANDLERS = {
  starting: (state) => ({ ...state, phase: { kind: 'starting' }, notice: null }),
  unauthorized: (state) => ({ ...state, phase: { kind: 'unauthorized' } }),
  unreachable: (state, { message }) => ({ ...state, phase: { kind: 'unreachable' }, notice: error(message) }),
  started: (state, { widgetSession }) => ({
    ...state,
    phase: { kind: 'ready', workspace: withWidgetSession(workspaceOf(state), widgetSession) },
  }),
  token_refreshed: (state, { widgetSession }) => {
    const { phase } = state;
    if (phase.kind === 'expired' || phase.kind === 'ready') {
      return { ...state, phase: { kind: 'ready', workspace: withWidgetSession(phase.workspace, widgetSession) } };
    }
    if (phase.kind === 'closed') {
      return { ...state, phase: { kind: 'closed', workspace: withWidgetSession(phase.workspace, widgetSession) } };
    }
    return state;
  },
  profile_saved: (state, { clinician }) =>
    inWorkspace(state, (workspace) => ({
      ...workspace,
      widgetSession: { ...workspace.widgetSession, clinician },
    })),
  expired: (state) => ({ ...state, phase: { kind: 'expired', workspace: workspaceOf(state) } }),
  closed: (state) => ({ ...state, phase: { kind: 'closed', workspace: workspaceOf(state) } }),
} satisfies Partial<Handlers>;

const ENCOUNTER_HANDLERS = {
  encounter_opened: (state, { encounterId }) =>
    inWorkspace(state, (workspace) => ({ ...workspace, encounter: emptyEncounter(encounterId) })),
  // What the service holds replaces what was shown; what was sent from here stays marked.
  encounter_restored: (state, restored) =>
    inWorkspace(state, (workspace) => ({
      ...workspace,
      awaitingPatient: restored.patient === null && workspace.awaitingPatient,
      encounter: {
        ...(workspace.encounter?.status === 'active' ? workspace.encounter : emptyEncounter(restored.encounterId)),
        encounterId: restored.encounterId,
        patient: restored.patient,
        consent: restored.consent,
        transcript: restored.transcript,
        note: restored.note,
        noteDraft: restored.note === null ? {} : { ...restored.note.sections },
        documents: restored.documents,
      },
    })),
  // A closed widget opens again for the patient; an expired one waits for its token.
  patient_accepted: (state, { patient }) => {
    const accepted = inWorkspace(state, (workspace) =>
      workspace.encounter === null
        ? workspace
        : {
            ...workspace,
            awaitingPatient: false,
            encounter: {
              ...(workspace.encounter.status === 'active'
                ? workspace.encounter
                : emptyEncounter(workspace.encounter.encounterId)),
              patient,
            },
          },
    );
    const { phase } = accepted;
    const reopened =
      phase.kind === 'closed' && phase.workspace !== null && accepted !== state
        ? { ...accepted, phase: { kind: 'ready', workspace: phase.workspace } as const }
        : accepted;
    return reopened.patientProblems.length === 0 ? reopened : { ...reopened, patientProblems: [] };
  },
  patient_refused: (state, { problems }) => ({ ...state, patientProblems: problems }),
  patient_mismatch: (state) =>
    inWorkspace(state, (workspace) =>
      workspace.encounter === null
        ? workspace
        : { ...workspace, encounter: { status: 'mismatched', encounterId: workspace.encounter.encounterId } },
    ),
  context_set: (state, { extraContext }) => ({ ...state, extraContext }),
} satisfies Partial<Handlers>;

const RECORDER_HANDLERS = {
  consent_recorded: (state, { consent }) => inEncounter(state, (encounter) => ({ ...encounter, consent })),
  consent_required: (state) => inEncounter(state, (encounter) => ({ ...encounter, consent: null })),
  microphone: (state, { microphone }) => inWorkspace(state, (workspace) => ({ ...workspace, microphone })),
  recording_starting: (state) => ({
    ...inEncounter(
      inRecorder(state, () => ({ ...IDLE_RECORDER, status: 'starting' })),
      (encounter) => ({ ...encounter, partial: '' }),
    ),
    notice: null,
  }),
  recording_started: (state, { at }) =>
    inWorkspace(state, (workspace) => ({
      ...workspace,
      recorder: { ...IDLE_RECORDER, status: 'recording', runningSince: at },
      microphone: 'allowed',
    })),
  recording_start_retrying: (state, { retry }) =>
    inRecorder(state, (recorder) => (recorder.status === 'starting' ? { ...recorder, startRetry: retry } : recorder)),
  recording_not_started: (state) => inRecorder(state, () => IDLE_RECORDER),
  recording_paused: (state, { at }) =>
    inRecorder(state, (recorder) => (recorder.status === 'recording' ? halted(recorder, 'paused', at) : recorder)),
  recording_resumed: (state, { at }) =>
    inRecorder(state, (recorder) =>
      recorder.status === 'paused' ? { ...recorder, status: 'recording', runningSince: at } : recorder,
    ),
  recording_stopping: (state, { at }) => inRecorder(state, (recorder) => halted(recorder, 'stopping', at)),
  recording_stopped: (state) =>
    inEncounter(
      inRecorder(state, (recorder) => ({ ...recorder, status: 'idle', connection: 'online' })),
      (encounter) => ({ ...encounter, partial: '' }),
    ),
  recording_lost: (state, { deviceLost, message }) => ({
    ...inWorkspace(state, (workspace) => (deviceLost ? { ...workspace, microphone: 'unavailable' } : workspace)),
    notice: error(message),
  }),
  partial: (state, { text }) => inEncounter(state, (encounter) => ({ ...encounter, partial: text })),
  final: (state, { line }) =>
    inEncounter(state, (encounter) => ({ ...encounter, partial: '', transcript: [...encounter.transcript, line] })),
  transcript_corrected: (state, { realtimeSessionId, segments }) =>
    inEncounter(state, (encounter) => {
      const corrected = new Map(segments.map((segment) => [segment.id, segment]));
      return {
        ...encounter,
        transcript: encounter.transcript.map((line) => {
          const segment = line.realtimeSessionId === realtimeSessionId ? corrected.get(line.segment.id) : undefined;
          return segment === undefined ? line : { ...line, segment };
        }),
      };
    }),
  level: (state, { level }) => inRecorder(state, (recorder) => ({ ...recorder, level })),
  connection: (state, { connection }) => inRecorder(state, (recorder) => ({ ...recorder, connection })),
} satisfies Partial<Handlers>;

const DOCUMENT_HANDLERS = {
  note_written: (state, { note }) =>
    inEncounter(state, (encounter) => ({ ...encounter, note, noteDraft: { ...note.sections } })),
  note_section_edited: (state, { key, text }) =>
    inEncounter(state, (encounter) => ({ ...encounter, noteDraft: { ...encounter.noteDraft, [key]: text } })),
  note_sent: (state, { note }) =>
    inEncounter(state, (encounter) => ({
      ...encounter,
      note,
      noteDraft: { ...note.sections },
      sentNoteRevision: note.revision,
    })),
  // One document per kind: writing a kind again returns the same document at a new revision.
  document_created: (state, { document }) =>
    inEncounter(state, (encounter) => ({
      ...encounter,
      documents: [document, ...encounter.documents.filter((candidate) => candidate.id !== document.id)],
    })),
  document_saved: (state, { document }) =>
    inEncounter(state, (encounter) => ({
      ...encounter,
      documents: encounter.documents.map((candidate) => (candidate.id === document.id ? document : candidate)),
    })),
  document_sent: (state, { document }) =>
    inEncounter(state, (encounter) => ({
      ...encounter,
      documents: encounter.documents.map((candidate) => (candidate.id === document.id ? document : candidate)),
      sentDocuments: { ...encounter.sentDocuments, [document.id]: document.revision },
    })),
} satisfies Partial<Handlers>;

const NOTICE_HANDLERS = {
  busy: (state, { busy }) => ({ ...inWorkspace(state, (workspace) => ({ ...workspace, busy })), notice: null }),
  settled: (state) => inWorkspace(state, (workspace) => ({ ...workspace, busy: null })),
  failed: (state, { message }) => ({ ...state, notice: error(message) }),
  notice_dismissed: (state) => ({ ...state, notice: null }),
  online: (state, { online }) => ({ ...state, online }),
} satisfies Partial<Handlers>;

const HANDLERS: Handlers = {
  ...SESSION_HANDLERS,
  ...ENCOUNTER_HANDLERS,
  ...RECORDER_HANDLERS,
  ...DOCUMENT_HANDLERS,
  ...NOTICE_HANDLERS,
};
