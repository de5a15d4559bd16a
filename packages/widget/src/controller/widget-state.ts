import type {
  TranscriptSegment,
  WidgetConsent,
  WidgetDocument,
  WidgetNote,
  WidgetSessionInfo,
} from '@chartwright/protocol';

import type { PatientSummary } from './patient-summary.js';

export type RecorderStatus = 'idle' | 'starting' | 'recording' | 'paused' | 'stopping';

export interface RecorderState {
  status: RecorderStatus;
  /** Recorded time before the current stretch (pauses excluded). */
  elapsedMs: number;
  /** Monotonic time the current stretch began; null unless recording. */
  runningSince: number | null;
  /** RMS level of the last chunk, 0–1. */
  level: number;
  /** `reconnecting`: the socket is lost, audio is kept and sent once it is back. */
  connection: 'online' | 'reconnecting';
  /** While starting: the last attempt failed and another follows, and why; null otherwise. */
  startRetry: StartRetry | null;
}

/** Why a recording is still starting: the service is full, has no recognizer, or cannot be reached. */
export type StartRetryCause = 'capacity' | 'unavailable' | 'unreachable';

export interface StartRetry {
  cause: StartRetryCause;
  /** The attempt about to be made (2 for the first retry) of `of` in all. */
  attempt: number;
  of: number;
}

/**
 * - `allowed`/`unknown`: nothing known against it.
 * - `blocked_by_embedder`: the iframe lacks allow="microphone".
 * - `denied`: the user (or the browser) refused access.
 * - `unavailable`: no device, or one held by another application.
 */
export type MicrophoneState = 'allowed' | 'unknown' | 'blocked_by_embedder' | 'denied' | 'unavailable';

/** A call the clinician started that has not answered yet. */
export type Busy =
  | 'consent'
  | 'correcting_transcript'
  | 'generating'
  | 'sending_note'
  | 'creating_document'
  | 'saving_profile'
  | `document:${string}`;

export interface Notice {
  kind: 'error' | 'info';
  message: string;
}

/** A final of the encounter as the service presents it (display text, corrections), and the realtime session it belongs to. */
export interface TranscriptLine {
  /** `<realtime session id>/<segment id>`: unique across the encounter's realtime sessions. */
  id: string;
  realtimeSessionId: string;
  segment: TranscriptSegment;
}

export const transcriptLineOf = (realtimeSessionId: string, segment: TranscriptSegment): TranscriptLine => ({
  id: `${realtimeSessionId}/${segment.id}`,
  realtimeSessionId,
  segment,
});

/** The encounter being worked on: everything in it is cleared when another is opened. */
export interface ActiveEncounter {
  status: 'active';
  /** The wire's `sessionId` (SESSION_STARTED, PUSH_NOTE, the API paths). */
  encounterId: string;
  /** Null until the EMR has sent the patient (or the encounter restored one). */
  patient: PatientSummary | null;
  consent: WidgetConsent | null;
  /** Stored and live finals of the encounter, in order. */
  transcript: TranscriptLine[];
  /** The utterance in progress: provisional, replaced by its final. */
  partial: string;
  note: WidgetNote | null;
  /** Section texts of `note` as the clinician is editing them. */
  noteDraft: Record<string, string>;
  documents: WidgetDocument[];
  /** Revision of the note / of each document last sent to the chart. */
  sentNoteRevision: number | null;
  sentDocuments: Record<string, number>;
}

/**
 * The PATIENT_CONTEXT named another patient than the emrSessionId's encounter: nothing of it is
 * shown, and nothing may be recorded.
 */
export interface MismatchedEncounter {
  status: 'mismatched';
  encounterId: string;
}

export type Encounter = ActiveEncounter | MismatchedEncounter;

/** What the widget holds once the service has accepted its token. */
export interface Workspace {
  /** Who the widget token works for (the widget session). */
  widgetSession: WidgetSessionInfo;
  /** True until the EMR has sent a patient (or an encounter restored one). */
  awaitingPatient: boolean;
  microphone: MicrophoneState;
  recorder: RecorderState;
  /** What is in flight, for progress and to disable the buttons it concerns. */
  busy: Busy | null;
  /** Null until one is opened: at start with the token's emrSessionId, else with the first patient. */
  encounter: Encounter | null;
}

/**
 * - `starting`: checking the token with the service.
 * - `unauthorized`: no token, or one the service refuses (forged, revoked partner).
 * - `unreachable`: the service could not be reached at start.
 * - `ready`: working.
 * - `expired`: the token is over; the EMR was told (TOKEN_EXPIRED) and reloads the widget. The
 *   workspace is kept for a TOKEN_REFRESH that still comes; none when the token was over at start.
 * - `closed`: the EMR sent CLOSE_WIDGET; recording stopped and the microphone is released. The
 *   workspace is kept for a PATIENT_CONTEXT that opens the widget again.
 */
export type WidgetPhase =
  | { kind: 'starting' }
  | { kind: 'unauthorized' }
  | { kind: 'unreachable' }
  | { kind: 'ready'; workspace: Workspace }
  | { kind: 'expired'; workspace: Workspace | null }
  | { kind: 'closed'; workspace: Workspace | null };

export interface WidgetState {
  phase: WidgetPhase;
  /** The SET_CONTEXT free text the note draws on. */
  extraContext: string;
  online: boolean;
  notice: Notice | null;
  /**
   * Why the EMR's last PATIENT_CONTEXT was refused, one `<field path>: <problem>` entry each (what
   * WIDGET_ERROR INVALID_PATIENT_DATA told the EMR), so the clinician sees it too; empty once one is accepted.
   */
  patientProblems: readonly string[];
}

export const IDLE_RECORDER: RecorderState = {
  status: 'idle',
  elapsedMs: 0,
  runningSince: null,
  level: 0,
  connection: 'online',
  startRetry: null,
};

export const INITIAL_STATE: WidgetState = {
  phase: { kind: 'starting' },
  extraContext: '',
  online: true,
  notice: null,
  patientProblems: [],
};

export function workspaceOf(state: WidgetState): Workspace | null {
  const { phase } = state;
  return phase.kind === 'ready' || phase.kind === 'expired' || phase.kind === 'closed' ? phase.workspace : null;
}

/** The encounter opened, whether or not its patient is the one the EMR sent. */
export function currentEncounterOf(state: WidgetState): Encounter | null {
  return workspaceOf(state)?.encounter ?? null;
}

export function activeEncounterOf(state: WidgetState): ActiveEncounter | null {
  const encounter = currentEncounterOf(state);
  return encounter?.status === 'active' ? encounter : null;
}

/** Whether the recorder may start: an encounter with its patient and consent, and a usable microphone. */
export function canRecord(state: WidgetState): boolean {
  if (state.phase.kind !== 'ready') return false;
  const { encounter, recorder, microphone } = state.phase.workspace;
  return (
    encounter?.status === 'active' &&
    encounter.patient !== null &&
    encounter.consent !== null &&
    recorder.status === 'idle' &&
    microphone !== 'blocked_by_embedder'
  );
}

/** Recorded time so far, the running stretch included. */
export function elapsedMs(recorder: RecorderState, monotonicNow: number): number {
  return recorder.elapsedMs + (recorder.runningSince === null ? 0 : Math.max(0, monotonicNow - recorder.runningSince));
}
