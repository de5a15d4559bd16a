import {
  validateEmrToWidgetMessage,
  widgetErrorFor,
  type ConsentMethod,
  type PatientContextMessage,
  type SetPatientContextRequest,
  type WidgetDocumentFormat,
  type WidgetDocumentKind,
  type WidgetEncounterState,
  type WidgetErrorCode,
  type WidgetSessionInfo,
  type WidgetToEmrMessage,
} from '@chartwright/protocol';

import { WidgetApi } from '../api/widget-api.js';
import { WidgetApiError } from '../api/widget-api-error.js';
import { WIDGET_VERSION } from '../version.js';
import type { ControllerContext, HostLink, WidgetEnvironment, WidgetStore } from './context.js';
import { DocumentsController, type DocumentChange } from './documents-controller.js';
import { applySetContext } from './extra-context.js';
import { NoteController } from './note-controller.js';
import { describe } from './notices.js';
import { summarizePatient } from './patient-summary.js';
import { RecorderController } from './recorder-controller.js';
import { Store } from './store.js';
import { Timers } from './timers.js';
import { TranscriptController, type LineCorrection } from './transcript-controller.js';
import { transition } from './transition.js';
import {
  INITIAL_STATE,
  activeEncounterOf,
  canRecord,
  currentEncounterOf,
  transcriptLineOf,
  workspaceOf,
  type TranscriptLine,
  type WidgetState,
} from './widget-state.js';
import { WidgetToken } from './widget-token.js';

/** No PATIENT_CONTEXT this long after WIDGET_READY: the widget asks (REQUEST_PATIENT_CONTEXT). */
export const PATIENT_CONTEXT_WAIT_MS = 3000;

function transcriptOf(state: WidgetEncounterState): TranscriptLine[] {
  return state.transcript.realtimeSessions.flatMap((realtimeSession) =>
    realtimeSession.segments.map((segment) => transcriptLineOf(realtimeSession.id, segment)),
  );
}

/** The PATIENT_CONTEXT fields as the patient-context call takes them. */
function patientContextBody(message: PatientContextMessage): SetPatientContextRequest {
  const { patient, context, appointment, noteConfig } = message;
  return {
    patient,
    ...(context === undefined ? {} : { context }),
    ...(appointment === undefined ? {} : { appointment }),
    ...(noteConfig === undefined ? {} : { noteConfig }),
  };
}

/**
 * The widget's behaviour, apart from how it looks: the widget session with the service, the
 * messages with the EMR page, the encounter and its patient; recording, the note and documents are
 * parts of it of their own. The UI renders `store.state` and calls the actions; tests drive the
 * same object in Node.
 */
export class WidgetController {
  readonly store: WidgetStore = new Store(INITIAL_STATE, transition);
  private readonly api: WidgetApi;
  private readonly timers = new Timers();
  private readonly token: WidgetToken;
  private readonly recorder: RecorderController;
  private readonly note: NoteController;
  private readonly transcript: TranscriptController;
  private readonly documents: DocumentsController;
  private host: HostLink | null = null;
  private stopListening: (() => void) | null = null;
  /** Encounter changes (opening, switching patient, closing) and starting a recording run one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly env: WidgetEnvironment) {
    this.api = new WidgetApi({
      baseUrl: env.baseUrl,
      ...(env.fetch === undefined ? {} : { fetch: env.fetch }),
      credentials: { current: () => this.token.current(), refresh: () => this.token.refresh() },
    });
    const context: ControllerContext = {
      env,
      store: this.store,
      api: this.api,
      post: (message) => this.post(message),
      postError: (code, entries) => this.postError(code, entries),
    };
    this.token = new WidgetToken(context, this.timers, () => void this.expire());
    this.recorder = new RecorderController(context);
    this.note = new NoteController(context);
    this.transcript = new TranscriptController(context);
    this.documents = new DocumentsController(context);
  }

  private get state(): WidgetState {
    return this.store.state;
  }

  /** Checks the token, opens the link to the EMR, announces WIDGET_READY and opens the encounter. */
  async start(): Promise<void> {
    const token = this.token.value;
    if (token === null) {
      this.store.dispatch({ type: 'unauthorized' });
      return;
    }
    this.store.dispatch({ type: 'starting' });
    let widgetSession: WidgetSessionInfo;
    try {
      // Not through the refresh flow: before this answers, the widget knows no host to ask.
      widgetSession = await this.api.widgetSession(token);
    } catch (error) {
      this.startFailed(error);
      return;
    }
    this.connectHost(widgetSession.allowedOrigins);
    this.store.dispatch({ type: 'started', widgetSession });
    this.post({ type: 'WIDGET_READY', version: WIDGET_VERSION });
    this.recorder.checkMicrophonePolicy();
    this.token.schedule(widgetSession);
    this.timers.later(PATIENT_CONTEXT_WAIT_MS, () => {
      const { phase } = this.state;
      if (phase.kind === 'ready' && phase.workspace.awaitingPatient) this.requestPatientContext();
    });
    if (widgetSession.emrSessionId !== null) await this.serially(() => this.openEncounter());
  }

  private startFailed(error: unknown): void {
    if (error instanceof WidgetApiError && error.code === 'widget_token_expired') {
      // The service would not say who the partner is, but the page did: the origins allowed to frame it.
      this.connectHost(this.env.boot.frameOrigins);
      void this.expire();
    } else if (error instanceof WidgetApiError && error.status === 401) {
      this.store.dispatch({ type: 'unauthorized' });
    } else {
      this.store.dispatch({ type: 'unreachable', message: describe(error) });
    }
  }

  private connectHost(allowedOrigins: readonly string[]): void {
    this.stopListening?.();
    this.host = this.env.host(allowedOrigins);
    this.stopListening = this.host.listen((data) => void this.receive(data));
  }

  private post(message: WidgetToEmrMessage): void {
    this.host?.post(message);
  }

  private postError(code: WidgetErrorCode, entries: readonly string[]): void {
    this.post({ type: 'WIDGET_ERROR', code, message: entries.join('; ') });
  }

  /** Tells the EMR the widget needs the patient (also a button while waiting). */
  requestPatientContext(): void {
    this.post({ type: 'REQUEST_PATIENT_CONTEXT' });
  }

  /** One message from the EMR page (already known to come from it): validated, then handled. */
  async receive(data: unknown): Promise<void> {
    if (this.disposed) return;
    const result = validateEmrToWidgetMessage(data);
    if (!result.ok) {
      const refusal = widgetErrorFor(result);
      // The clinician sees what is wrong with the patient's details too, not only the EMR.
      if (refusal.code === 'INVALID_PATIENT_DATA')
        this.store.dispatch({ type: 'patient_refused', problems: result.entries });
      this.post(refusal);
      return;
    }
    const { message } = result;
    switch (message.type) {
      case 'PATIENT_CONTEXT':
        await this.serially(() => this.applyPatientContext(message));
        return;
      case 'SET_CONTEXT': {
        const applied = applySetContext(this.state.extraContext, message);
        if (applied.ok) this.store.dispatch({ type: 'context_set', extraContext: applied.context });
        else this.postError('INVALID_MESSAGE', [applied.entry]);
        return;
      }
      case 'TOKEN_REFRESH':
        await this.token.refreshWith(message.token);
        return;
      case 'CLOSE_WIDGET':
        await this.serially(() => this.close());
        return;
    }
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // ---- the encounter and its patient -------------------------------------------------------------

  /** Opens (or, with the token's emrSessionId, resumes) the encounter and shows what it holds. */
  private async openEncounter(): Promise<void> {
    try {
      const encounter = await this.api.openEncounter();
      this.store.dispatch({ type: 'encounter_opened', encounterId: encounter.sessionId });
      if (encounter.emrSessionId !== null) this.post({ type: 'SESSION_STARTED', sessionId: encounter.sessionId });
      if (encounter.resumed) this.restore(await this.api.encounterState(encounter.sessionId));
    } catch (error) {
      this.store.dispatch({ type: 'failed', message: describe(error) });
    }
  }

  private restore(encounter: WidgetEncounterState): void {
    this.store.dispatch({
      type: 'encounter_restored',
      encounterId: encounter.sessionId,
      patient: encounter.patientContext === null ? null : summarizePatient(encounter.patientContext, new Date()),
      consent: encounter.consent,
      transcript: transcriptOf(encounter),
      note: encounter.notes[0] ?? null,
      documents: encounter.documents,
    });
  }

  private async applyPatientContext(message: PatientContextMessage): Promise<void> {
    const current = activeEncounterOf(this.state)?.patient ?? null;
    const switching = current !== null && current.id !== message.patient.id;
    // Whatever is being recorded belongs to the patient it was started for: finish it under them first.
    if (switching) await this.recorder.stop();
    if (switching && workspaceOf(this.state)?.widgetSession.emrSessionId === null) {
      await this.openEncounter();
    } else if (currentEncounterOf(this.state) === null) {
      await this.openEncounter();
    }
    const encounter = currentEncounterOf(this.state);
    if (encounter === null) return;
    const { encounterId } = encounter;
    try {
      await this.api.setPatientContext(encounterId, patientContextBody(message));
      // Back to the encounter's own patient after a mismatch: show what it holds again.
      if (encounter.status === 'mismatched') this.restore(await this.api.encounterState(encounterId));
      this.store.dispatch({ type: 'patient_accepted', patient: summarizePatient(message, new Date()) });
    } catch (error) {
      this.patientRefused(error);
    }
  }

  private patientRefused(error: unknown): void {
    if (error instanceof WidgetApiError && error.code === 'patient_mismatch') {
      // The emrSessionId's encounter belongs to another patient: show neither, record nothing, tell the EMR.
      this.store.dispatch({ type: 'patient_mismatch' });
      this.postError('PATIENT_MISMATCH', [
        'patient.id: this EMR session’s encounter belongs to another patient; open the widget with a token for a new emrSessionId',
      ]);
    } else if (error instanceof WidgetApiError && error.code === 'invalid_body') {
      const problems = error.details.map(
        (detail) => `${detail.path === '' ? 'message' : detail.path}: ${detail.message}`,
      );
      this.store.dispatch({ type: 'patient_refused', problems });
      this.postError('INVALID_PATIENT_DATA', problems);
    } else {
      this.store.dispatch({ type: 'failed', message: describe(error) });
    }
  }

  // ---- the clinician's actions ------------------------------------------------------------------

  recordConsent(method: ConsentMethod, note: string): Promise<void> {
    return this.recorder.recordConsent(method, note);
  }

  /** Whether the recorder may start: an encounter with its patient and consent, and a usable microphone. */
  get canRecord(): boolean {
    return canRecord(this.state);
  }

  startRecording(): Promise<void> {
    return this.serially(() => this.recorder.start());
  }

  pauseRecording(): void {
    this.recorder.pause();
  }

  resumeRecording(): void {
    this.recorder.resume();
  }

  /** Releases the microphone and waits for the last finals: after it, the transcript is complete. */
  stopRecording(): Promise<void> {
    return this.recorder.stop();
  }

  /** Writes the note from the whole transcript: a recording in progress is finished first. */
  async generateNote(): Promise<void> {
    await this.recorder.stop();
    await this.note.generate();
  }

  /** Saves the clinician's wording of a transcript line (a revision); resolves whether it was saved. */
  correctTranscript(lineId: string, correction: LineCorrection): Promise<boolean> {
    return this.transcript.correct(lineId, correction);
  }

  /** Swaps clinician and patient for the line's speaker across its realtime session. */
  swapSpeakerRoles(lineId: string): Promise<void> {
    return this.transcript.swapRoles(lineId);
  }

  editNoteSection(key: string, text: string): void {
    this.note.edit(key, text);
  }

  sendNote(): Promise<void> {
    return this.note.send();
  }

  createDocument(
    documentType: WidgetDocumentKind,
    options?: { format?: WidgetDocumentFormat; recipient?: string },
  ): Promise<void> {
    return this.documents.create(documentType, options);
  }

  sendDocument(documentId: string, edit: DocumentChange): Promise<void> {
    return this.documents.send(documentId, edit);
  }

  restoreDocumentEdit(documentId: string): Promise<void> {
    return this.documents.restoreEdit(documentId);
  }

  saveDisplayName(displayName: string): Promise<void> {
    return this.documents.saveDisplayName(displayName);
  }

  setOnline(online: boolean): void {
    this.store.dispatch({ type: 'online', online });
  }

  dismissNotice(): void {
    this.store.dispatch({ type: 'notice_dismissed' });
  }

  // ---- leaving ----------------------------------------------------------------------------------

  /** The token is over: recording stops (its audio stored), and the EMR reloads the widget (TOKEN_EXPIRED). */
  private async expire(): Promise<void> {
    if (this.state.phase.kind === 'expired') return;
    this.store.dispatch({ type: 'expired' });
    this.post({ type: 'TOKEN_EXPIRED' });
    await this.recorder.stop();
  }

  /** CLOSE_WIDGET: the recording is stopped and flushed, and the microphone released. */
  private async close(): Promise<void> {
    await this.recorder.stop();
    this.store.dispatch({ type: 'closed' });
  }

  /** Stops everything: timers, listening, recording (flushed). */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.timers.dispose();
    this.stopListening?.();
    await this.recorder.stop();
  }
}
