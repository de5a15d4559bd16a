import type {
  TranscriptSegment,
  WidgetConsent,
  WidgetDocument,
  WidgetNote,
  WidgetSessionInfo,
} from '@chartwright/protocol';

import type { PatientSummary } from './patient-summary.js';

/**
 * - `starting`: checking the token with the service.
 * - `unauthorized`: no token, or one the service refuses (forged, revoked partner).
 * - `expired`: the token is over; the EMR was told (TOKEN_EXPIRED) and reloads the widget.
 * - `unreachable`: the service could not be reached at start.
 * - `ready`: working.
 * - `closed`: the EMR sent CLOSE_WIDGET; recording stopped and the microphone is released.
 */
export type WidgetPhase = 'starting' | 'unauthorized' | 'expired' | 'unreachable' | 'ready' | 'closed';

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
}

/**
 * - `allowed`/`unknown`: nothing known against it.
 * - `blocked_by_embedder`: the iframe lacks allow="microphone".
 * - `denied`: the user (or the browser) refused access.
 * - `unavailable`: no device, or one held by another application.
 */
export type MicrophoneState = 'allowed' | 'unknown' | 'blocked_by_embedder' | 'denied' | 'unavailable';

/** A call the clinician started that has not answered yet. */
export type Busy = 'consent' | 'generating' | 'sending_note' | 'creating_document' | `document:${string}`;

export interface Notice {
  kind: 'error' | 'info';
  message: string;
}

export type TranscriptLine = Pick<TranscriptSegment, 'id' | 'text' | 'speaker'>;

export interface WidgetState {
  phase: WidgetPhase;
  /** Who the widget token works for, once the service has said. */
  widgetSession: WidgetSessionInfo | null;
  /** The open encounter's id (the wire's `sessionId`, as in SESSION_STARTED). */
  encounterId: string | null;
  patient: PatientSummary | null;
  /** The PATIENT_CONTEXT named another patient than the emrSessionId's encounter: nothing may be recorded. */
  patientMismatch: boolean;
  /** True until the EMR has sent a patient (or the encounter restored one). */
  awaitingPatient: boolean;
  consent: WidgetConsent | null;
  microphone: MicrophoneState;
  recorder: RecorderState;
  /** Stored and live finals of the encounter, in order. */
  transcript: TranscriptLine[];
  /** The utterance in progress: provisional, replaced by its final. */
  partial: string;
  note: WidgetNote | null;
  /** Section texts of `note` as the clinician is editing them. */
  noteDraft: Record<string, string>;
  documents: WidgetDocument[];
  /** What is in flight, for progress and to disable the buttons it concerns. */
  busy: Busy | null;
  /** Revision of the note / of each document last sent to the chart. */
  sentNoteRevision: number | null;
  sentDocuments: Record<string, number>;
  /** The SET_CONTEXT free text the note draws on. */
  extraContext: string;
  online: boolean;
  notice: Notice | null;
}

export const IDLE_RECORDER: RecorderState = {
  status: 'idle',
  elapsedMs: 0,
  runningSince: null,
  level: 0,
  connection: 'online',
};

export const INITIAL_STATE: WidgetState = {
  phase: 'starting',
  widgetSession: null,
  encounterId: null,
  patient: null,
  patientMismatch: false,
  awaitingPatient: true,
  consent: null,
  microphone: 'unknown',
  recorder: IDLE_RECORDER,
  transcript: [],
  partial: '',
  note: null,
  noteDraft: {},
  documents: [],
  busy: null,
  sentNoteRevision: null,
  sentDocuments: {},
  extraContext: '',
  online: true,
  notice: null,
};

/** Everything that belongs to one encounter, cleared when another is opened. */
export const EMPTY_ENCOUNTER: Pick<
  WidgetState,
  | 'encounterId'
  | 'patient'
  | 'patientMismatch'
  | 'consent'
  | 'transcript'
  | 'partial'
  | 'note'
  | 'noteDraft'
  | 'documents'
  | 'sentNoteRevision'
  | 'sentDocuments'
> = {
  encounterId: null,
  patient: null,
  patientMismatch: false,
  consent: null,
  transcript: [],
  partial: '',
  note: null,
  noteDraft: {},
  documents: [],
  sentNoteRevision: null,
  sentDocuments: {},
};

/** Recorded time so far, the running stretch included. */
export function elapsedMs(recorder: RecorderState, monotonicNow: number): number {
  return recorder.elapsedMs + (recorder.runningSince === null ? 0 : Math.max(0, monotonicNow - recorder.runningSince));
}
