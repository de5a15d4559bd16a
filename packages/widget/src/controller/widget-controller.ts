import {
  MicrophonePermissionError,
  MicrophoneError,
  type ChartwrightError,
  type RealtimeTokenGrant,
  type WebSocketConstructor,
} from '@chartwright/client';
import {
  validateEmrToWidgetMessage,
  widgetErrorFor,
  type ConsentMethod,
  type PatientContextMessage,
  type SetPatientContextRequest,
  type WidgetDocument,
  type WidgetDocumentFormat,
  type WidgetDocumentKind,
  type WidgetEncounterState,
  type WidgetErrorCode,
  type WidgetSessionInfo,
  type WidgetToEmrMessage,
} from '@chartwright/protocol';

import { WidgetApi } from '../api/widget-api.js';
import { WidgetApiError } from '../api/widget-api-error.js';
import type { WidgetBoot } from '../boot.js';
import { WIDGET_VERSION } from '../version.js';
import { applySetContext } from './extra-context.js';
import { describe, whileBusy } from './notices.js';
import { summarizePatient } from './patient-summary.js';
import { editedSections, pushDocumentOf, pushNoteOf } from './push-messages.js';
import { Recording, type AudioInput } from './recording.js';
import { Store } from './store.js';
import { jwtTimes, tokenSchedule } from './token-timing.js';
import { transition, type WidgetEvent } from './transition.js';
import {
  INITIAL_STATE,
  activeEncounterOf,
  canRecord,
  currentEncounterOf,
  workspaceOf,
  type TranscriptLine,
  type WidgetState,
} from './widget-state.js';

/** The postMessage link to the EMR page (HostChannel in the browser). */
export interface HostLink {
  post(message: WidgetToEmrMessage): void;
  /** Calls `handler` with each message the EMR page may send; returns the function that stops it. */
  listen(handler: (data: unknown) => void): () => void;
}

/** Everything the controller needs from its surroundings: the browser in the widget, Node in tests. */
export interface WidgetEnvironment {
  /** The widget host's origin; the API and the realtime socket live there. */
  baseUrl: string;
  boot: WidgetBoot;
  /** Opens the link to the EMR page for these allowed origins. */
  host(allowedOrigins: readonly string[]): HostLink;
  audio: AudioInput;
  /** Whether the page may use the microphone at all (permissions policy). */
  microphonePolicy(): 'allowed' | 'blocked' | 'unknown';
  /** Wall clock, ms (corrected by `boot.clockOffsetMs` for token times). */
  now(): number;
  /** Monotonic clock for elapsed recording time. */
  monotonicNow(): number;
  fetch?: typeof globalThis.fetch;
  /** Default: the global WebSocket (Node 20 has none: tests pass the `ws` package's). */
  WebSocket?: WebSocketConstructor;
}

/** No PATIENT_CONTEXT this long after WIDGET_READY: the widget asks (REQUEST_PATIENT_CONTEXT). */
export const PATIENT_CONTEXT_WAIT_MS = 3000;
/** How long a REQUEST_TOKEN_REFRESH waits for TOKEN_REFRESH before the token is treated as over. */
export const TOKEN_REFRESH_WAIT_MS = 30_000;

const MICROPHONE_NOT_ALLOWED_MESSAGE =
  'microphone: the widget’s iframe may not use the microphone; embed it with allow="microphone"';

function transcriptOf(state: WidgetEncounterState): TranscriptLine[] {
  return state.transcript.realtimeSessions.flatMap((realtimeSession) =>
    realtimeSession.segments.map(({ id, text, speaker }) => ({ id: `${realtimeSession.id}/${id}`, text, speaker })),
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
 * The widget's behaviour, apart from how it looks: the widget session with the service, the messages
 * with the EMR page, the encounter and its patient, consent, recording, the note and documents.
 * The UI renders `store.state` and calls the actions; tests drive the same object in Node.
 */
export class WidgetController {
  readonly store = new Store<WidgetState, WidgetEvent>(INITIAL_STATE, transition);
  private readonly api: WidgetApi;
  private token: string | null;
  private host: HostLink | null = null;
  private stopListening: (() => void) | null = null;
  private recording: Recording | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private tokenTimers: ReturnType<typeof setTimeout>[] = [];
  private pendingRefresh: { promise: Promise<boolean>; settle: (refreshed: boolean) => void } | null = null;
  /** Encounter changes (opening, switching patient, closing) run one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly env: WidgetEnvironment) {
    this.token = env.boot.token;
    this.api = new WidgetApi({
      baseUrl: env.baseUrl,
      ...(env.fetch === undefined ? {} : { fetch: env.fetch }),
      credentials: {
        current: () => this.token ?? '',
        refresh: () => this.requestTokenRefresh(),
      },
    });
  }

  private get state(): WidgetState {
    return this.store.state;
  }

  /** Checks the token, opens the link to the EMR, announces WIDGET_READY and opens the encounter. */
  async start(): Promise<void> {
    if (this.token === null) {
      this.store.dispatch({ type: 'unauthorized' });
      return;
    }
    this.store.dispatch({ type: 'starting' });
    let widgetSession: WidgetSessionInfo;
    try {
      // Not through the refresh flow: before this answers, the widget knows no host to ask.
      widgetSession = await this.api.widgetSession(this.token);
    } catch (error) {
      this.startFailed(error);
      return;
    }
    this.connectHost(widgetSession.allowedOrigins);
    this.store.dispatch({ type: 'started', widgetSession });
    this.post({ type: 'WIDGET_READY', version: WIDGET_VERSION });
    this.checkMicrophonePolicy();
    this.scheduleTokenTimers(widgetSession);
    this.later(PATIENT_CONTEXT_WAIT_MS, () => {
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
      this.post(widgetErrorFor(result));
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
        await this.refreshWith(message.token);
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
    if (switching) await this.stopRecording();
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
      if (error instanceof WidgetApiError && error.code === 'patient_mismatch') {
        this.mismatch();
      } else if (error instanceof WidgetApiError && error.code === 'invalid_body') {
        this.postError(
          'INVALID_PATIENT_DATA',
          error.details.map((detail) => `${detail.path === '' ? 'message' : detail.path}: ${detail.message}`),
        );
      } else {
        this.store.dispatch({ type: 'failed', message: describe(error) });
      }
    }
  }

  /** The emrSessionId's encounter belongs to another patient: show neither, record nothing, tell the EMR. */
  private mismatch(): void {
    this.store.dispatch({ type: 'patient_mismatch' });
    this.postError('PATIENT_MISMATCH', [
      'patient.id: this EMR session’s encounter belongs to another patient; open the widget with a token for a new emrSessionId',
    ]);
  }

  // ---- the widget token -------------------------------------------------------------------------

  /** The service's time now, as the page was told it. */
  private serviceNow(): number {
    return this.env.now() + this.env.boot.clockOffsetMs;
  }

  private scheduleTokenTimers(widgetSession: WidgetSessionInfo): void {
    for (const timer of this.tokenTimers) clearTimeout(timer);
    const expiresAtMs = Date.parse(widgetSession.expiresAt);
    const now = this.serviceNow();
    const times = this.token === null ? null : jwtTimes(this.token);
    const lifetime = times === null ? expiresAtMs - now : times.expiresAtMs - times.issuedAtMs;
    const schedule = tokenSchedule(expiresAtMs, lifetime, now);
    this.tokenTimers = [
      this.later(schedule.expiringInMs, () => {
        this.post({ type: 'TOKEN_EXPIRING', expiresInMs: Math.max(0, expiresAtMs - this.serviceNow()) });
      }),
      this.later(schedule.expiredInMs, () => void this.expire()),
    ];
  }

  /**
   * A call was refused for an expired token: ask the EMR (REQUEST_TOKEN_REFRESH) and wait for
   * TOKEN_REFRESH. Resolves false, the widget then being expired, when none comes in time.
   */
  private requestTokenRefresh(): Promise<boolean> {
    if (this.pendingRefresh !== null) return this.pendingRefresh.promise;
    let settle!: (refreshed: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (settle = resolve));
    const timer = this.later(TOKEN_REFRESH_WAIT_MS, () => {
      this.pendingRefresh = null;
      settle(false);
      void this.expire();
    });
    this.pendingRefresh = {
      promise,
      settle: (refreshed) => {
        clearTimeout(timer);
        this.pendingRefresh = null;
        settle(refreshed);
      },
    };
    this.post({ type: 'REQUEST_TOKEN_REFRESH' });
    return promise;
  }

  /** TOKEN_REFRESH: checked with the service, then used for every call from now on, without a reload. */
  private async refreshWith(token: string): Promise<void> {
    let widgetSession: WidgetSessionInfo;
    try {
      widgetSession = await this.api.widgetSession(token);
    } catch (error) {
      const code = error instanceof WidgetApiError ? error.code : 'internal_error';
      this.postError('INVALID_MESSAGE', [`token: the service refused it (${code})`]);
      return;
    }
    const current = workspaceOf(this.state)?.widgetSession ?? null;
    if (
      current !== null &&
      (widgetSession.partner.id !== current.partner.id || widgetSession.clinician.id !== current.clinician.id)
    ) {
      this.postError('INVALID_MESSAGE', ['token: must be for the same partner and clinician as the current one']);
      return;
    }
    this.token = token;
    this.store.dispatch({ type: 'token_refreshed', widgetSession });
    this.scheduleTokenTimers(widgetSession);
    this.pendingRefresh?.settle(true);
  }

  /** The token is over: recording stops (its audio stored), and the EMR reloads the widget (TOKEN_EXPIRED). */
  private async expire(): Promise<void> {
    if (this.state.phase.kind === 'expired') return;
    this.store.dispatch({ type: 'expired' });
    this.post({ type: 'TOKEN_EXPIRED' });
    await this.stopRecording();
  }

  // ---- consent and recording --------------------------------------------------------------------

  async recordConsent(method: ConsentMethod, note: string): Promise<void> {
    const encounter = activeEncounterOf(this.state);
    if (encounter === null) return;
    await whileBusy(this.store, 'consent', async () => {
      const consent = await this.api.recordConsent(encounter.encounterId, {
        method,
        ...(note.trim() === '' ? {} : { note: note.trim() }),
      });
      this.store.dispatch({ type: 'consent_recorded', consent });
    });
  }

  /** Whether the recorder may start: an encounter with its patient and consent, and a usable microphone. */
  get canRecord(): boolean {
    return canRecord(this.state);
  }

  private checkMicrophonePolicy(): void {
    const policy = this.env.microphonePolicy();
    if (policy === 'blocked') this.microphoneBlockedByEmbedder();
    else this.store.dispatch({ type: 'microphone', microphone: policy });
  }

  private microphoneBlockedByEmbedder(): void {
    if (workspaceOf(this.state)?.microphone === 'blocked_by_embedder') return;
    this.store.dispatch({ type: 'microphone', microphone: 'blocked_by_embedder' });
    this.postError('MICROPHONE_NOT_ALLOWED', [MICROPHONE_NOT_ALLOWED_MESSAGE]);
  }

  async startRecording(): Promise<void> {
    await this.serially(async () => {
      const encounterId = activeEncounterOf(this.state)?.encounterId;
      if (!this.canRecord || encounterId === undefined) return;
      this.store.dispatch({ type: 'recording_starting' });
      try {
        // Minted here rather than by the realtime session, so a refusal (no consent, offline) is reported at once, not retried.
        let first: RealtimeTokenGrant | null = await this.realtimeToken(encounterId);
        this.recording = await Recording.start({
          baseUrl: this.env.baseUrl,
          // Bound to this encounter: a reconnect after a patient switch still files audio under its own patient.
          token: () =>
            (first === null ? this.realtimeToken(encounterId) : Promise.resolve(first)).finally(() => (first = null)),
          input: this.env.audio,
          ...(this.env.WebSocket === undefined ? {} : { WebSocket: this.env.WebSocket }),
          handlers: {
            partial: (text) => this.store.dispatch({ type: 'partial', text }),
            final: ({ id, text, speaker }) => this.store.dispatch({ type: 'final', line: { id, text, speaker } }),
            level: (level) => this.store.dispatch({ type: 'level', level }),
            connection: (connection) => this.store.dispatch({ type: 'connection', connection }),
            failed: (error) => void this.recordingFailed(error),
            audioDropped: () => {
              if (this.state.notice !== null) return;
              this.store.dispatch({
                type: 'failed',
                message:
                  'The connection has been lost for too long: new audio is not kept until it is back. The recording so far is safe.',
              });
            },
          },
        });
        this.store.dispatch({ type: 'recording_started', at: this.env.monotonicNow() });
      } catch (error) {
        this.store.dispatch({ type: 'recording_not_started' });
        this.cannotRecord(error);
      }
    });
  }

  private async realtimeToken(encounterId: string): Promise<RealtimeTokenGrant> {
    const minted = await this.api.realtimeToken(encounterId);
    // The service's expiry on the local clock, so the realtime session refreshes it on time whatever the skew.
    return { token: minted.token, expiresAt: new Date(Date.parse(minted.expiresAt) - this.env.boot.clockOffsetMs) };
  }

  private cannotRecord(error: unknown): void {
    if (error instanceof MicrophonePermissionError) {
      if (this.env.microphonePolicy() === 'blocked') this.microphoneBlockedByEmbedder();
      else this.store.dispatch({ type: 'microphone', microphone: 'denied' });
      return;
    }
    if (error instanceof MicrophoneError) {
      this.store.dispatch({ type: 'microphone', microphone: 'unavailable' });
      return;
    }
    if (error instanceof WidgetApiError && error.code === 'consent_required') {
      this.store.dispatch({ type: 'consent_required' });
      return;
    }
    this.store.dispatch({ type: 'failed', message: describe(error) });
  }

  private async recordingFailed(error: ChartwrightError): Promise<void> {
    const deviceLost = error.code === 'microphone_ended';
    await this.stopRecording();
    this.store.dispatch({
      type: 'recording_lost',
      deviceLost,
      message: deviceLost
        ? 'The microphone stopped. What was recorded until then is kept.'
        : 'The recording stopped: the connection could not be restored. What was recorded until then is kept.',
    });
  }

  pauseRecording(): void {
    if (this.recording === null || workspaceOf(this.state)?.recorder.status !== 'recording') return;
    this.recording.pause();
    this.store.dispatch({ type: 'recording_paused', at: this.env.monotonicNow() });
  }

  resumeRecording(): void {
    if (this.recording === null || workspaceOf(this.state)?.recorder.status !== 'paused') return;
    this.recording.resume();
    this.store.dispatch({ type: 'recording_resumed', at: this.env.monotonicNow() });
  }

  /** Releases the microphone and waits for the last finals: after it, the transcript is complete. */
  async stopRecording(): Promise<void> {
    const recording = this.recording;
    if (recording === null) return;
    this.recording = null;
    this.store.dispatch({ type: 'recording_stopping', at: this.env.monotonicNow() });
    await recording.stop();
    this.store.dispatch({ type: 'recording_stopped' });
  }

  // ---- the note ---------------------------------------------------------------------------------

  /** Writes the note from the transcript (the recording is finished first) with the SET_CONTEXT text. */
  async generateNote(): Promise<void> {
    await this.stopRecording();
    const encounter = activeEncounterOf(this.state);
    if (encounter === null) return;
    const { extraContext } = this.state;
    await whileBusy(
      this.store,
      'generating',
      async () => {
        const note = await this.api.generateNote(encounter.encounterId, extraContext === '' ? {} : { extraContext });
        this.store.dispatch({ type: 'note_written', note });
      },
      (error) =>
        error instanceof WidgetApiError && error.code === 'transcript_empty'
          ? 'Nothing has been transcribed yet: record the visit first.'
          : describe(error),
    );
  }

  editNoteSection(key: string, text: string): void {
    this.store.dispatch({ type: 'note_section_edited', key, text });
  }

  /** Saves the edits (a new revision), then sends the note to the chart: PUSH_NOTE, every time. */
  async sendNote(): Promise<void> {
    const encounter = activeEncounterOf(this.state);
    if (encounter === null) return;
    const { note, encounterId, patient, noteDraft } = encounter;
    if (note === null || patient === null) return;
    await whileBusy(
      this.store,
      'sending_note',
      async () => {
        const edited = editedSections(note, noteDraft);
        const saved =
          Object.keys(edited).length === 0
            ? note
            : await this.api.updateNote(encounterId, note.id, { sections: edited, revision: note.revision });
        this.store.dispatch({ type: 'note_sent', note: saved });
        this.post(pushNoteOf(saved, { encounterId, patientId: patient.id }));
      },
      (error) =>
        error instanceof WidgetApiError && error.code === 'revision_conflict'
          ? 'The note was changed elsewhere (another tab?). Reopen the scribe to see the latest version.'
          : describe(error),
    );
  }

  // ---- documents --------------------------------------------------------------------------------

  async createDocument(
    documentType: WidgetDocumentKind,
    options: { format?: WidgetDocumentFormat; recipient?: string } = {},
  ): Promise<void> {
    const encounter = activeEncounterOf(this.state);
    if (encounter === null) return;
    await whileBusy(this.store, 'creating_document', async () => {
      const recipient = options.recipient?.trim() ?? '';
      const document = await this.api.createDocument(encounter.encounterId, {
        documentType,
        ...(options.format === undefined ? {} : { format: options.format }),
        ...(recipient === '' || documentType !== 'referral' ? {} : { recipient }),
      });
      this.store.dispatch({ type: 'document_created', document });
    });
  }

  /**
   * Saves the document's edits when there are any (a new revision), then sends it to the chart:
   * PUSH_DOCUMENT, with a fresh link to its PDF when it goes as one.
   */
  async sendDocument(
    documentId: string,
    edit: { title?: string; content?: string; fields?: Record<string, string>; format?: WidgetDocumentFormat },
  ): Promise<void> {
    const encounter = activeEncounterOf(this.state);
    const document = encounter?.documents.find((candidate) => candidate.id === documentId);
    if (!encounter?.patient || document === undefined) return;
    const { encounterId, patient } = encounter;
    await whileBusy(this.store, `document:${documentId}`, async () => {
      const change = changedDocumentFields(document, edit);
      const saved =
        Object.keys(change).length === 0
          ? document
          : await this.api.updateDocument(encounterId, documentId, { ...change, revision: document.revision });
      const pdfUrl = saved.format === 'pdf' ? (await this.api.documentPdf(encounterId, saved.id)).pdfUrl : undefined;
      this.store.dispatch({ type: 'document_sent', document: saved });
      this.post(pushDocumentOf(saved, { encounterId, patientId: patient.id }, pdfUrl));
    });
  }

  // ---- leaving ----------------------------------------------------------------------------------

  /** CLOSE_WIDGET: the recording is stopped and flushed, and the microphone released. */
  private async close(): Promise<void> {
    await this.stopRecording();
    this.store.dispatch({ type: 'closed' });
  }

  setOnline(online: boolean): void {
    this.store.dispatch({ type: 'online', online });
  }

  dismissNotice(): void {
    this.store.dispatch({ type: 'notice_dismissed' });
  }

  /** Stops everything: timers, listening, recording (flushed). */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.stopListening?.();
    await this.stopRecording();
  }

  private later(ms: number, run: () => void): ReturnType<typeof setTimeout> {
    // Beyond a 32-bit delay setTimeout fires at once; tokens live 7 days at most, well within it.
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.disposed) run();
      },
      Math.min(ms, 2 ** 31 - 1),
    );
    this.timers.add(timer);
    return timer;
  }
}

/** The fields of a document edit that differ from the document as saved. */
function changedDocumentFields(
  document: WidgetDocument,
  edit: { title?: string; content?: string; fields?: Record<string, string>; format?: WidgetDocumentFormat },
): { title?: string; content?: string; fields?: Record<string, string>; format?: WidgetDocumentFormat } {
  const fields =
    edit.fields === undefined || document.fields === null
      ? undefined
      : Object.fromEntries(
          Object.entries(edit.fields).filter(
            ([key, value]) => document.fields?.find((field) => field.key === key)?.value !== value,
          ),
        );
  return {
    ...(edit.title === undefined || edit.title.trim() === document.title ? {} : { title: edit.title }),
    ...(edit.content === undefined || document.fields !== null || edit.content === document.content
      ? {}
      : { content: edit.content }),
    ...(fields === undefined || Object.keys(fields).length === 0 ? {} : { fields }),
    ...(edit.format === undefined || edit.format === document.format ? {} : { format: edit.format }),
  };
}
