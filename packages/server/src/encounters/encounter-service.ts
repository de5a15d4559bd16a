import type {
  PatientContextResult,
  RealtimeToken,
  RecordConsentParams,
  StoredPatientContext,
  WidgetConsent,
  WidgetEncounter,
  WidgetEncounterState,
  WidgetTranscript,
} from '@chartwright/protocol';

import type { RealtimeTokenService } from '../auth/realtime-tokens.js';
import { generateId } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { WidgetSession } from '../partners/widget-sessions.js';
import type { EncounterConsentRow } from '../store/encounter-consents.js';
import type { EncounterRow } from '../store/encounters.js';
import type { Deletion } from '../retention/deletion.js';
import type { Repositories } from '../store/repositories.js';
import type { EncounterDocumentService } from './documents/document-service.js';
import type { EncounterNoteService } from './encounter-notes.js';
import { encounterTemplateOf, resolveEncounterTemplate, storedEncounterTemplate } from './encounter-template.js';
import { patientContextOf, requireOwnedEncounter } from './owned-encounter.js';
import type { EncounterTranscripts } from './transcripts.js';

/** Namespaced so the EMR's raw id is never used as an account patient id (interface: Patient id semantics). */
export const widgetPatientKey = (partnerId: string, patientId: string) => `widget_${partnerId}_${patientId}`;

const encounterView = (row: EncounterRow, resumed: boolean): WidgetEncounter => ({
  sessionId: row.id,
  emrSessionId: row.emr_session_id,
  resumed,
  patientId: row.patient_id,
  createdAt: new Date(row.created_at).toISOString(),
});

const consentView = (row: EncounterConsentRow): WidgetConsent => ({
  method: row.method,
  note: row.note,
  clinicianId: row.clinician_id,
  recordedAt: new Date(row.recorded_at).toISOString(),
});

/**
 * The encounter behind a widget: opened or resumed for the EMR session, given its patient (and with
 * it the locked note template), the patient's consent, audio for it, its transcript, and everything
 * a relaunch restores.
 */
export class EncounterService {
  constructor(
    private readonly deps: {
      repositories: Repositories;
      clock: Clock;
      realtimeTokens: RealtimeTokenService;
      transcripts: EncounterTranscripts;
      notes: EncounterNoteService;
      documents: EncounterDocumentService;
      deletion: Deletion;
    },
  ) {}

  /**
   * With an emrSessionId in the widget token, reopens that EMR session's encounter (the same id on
   * every relaunch, never shared with another partner or clinician); without one, opens a new one.
   */
  async open(widgetSession: WidgetSession): Promise<WidgetEncounter> {
    const now = this.deps.clock.now();
    const candidate: EncounterRow = {
      id: generateId('ses'),
      project_id: widgetSession.partner.project_id,
      environment: widgetSession.partner.environment,
      partner_id: widgetSession.partner.id,
      clinician_id: widgetSession.clinician.id,
      emr_session_id: widgetSession.emrSessionId,
      patient_key: null,
      patient_id: null,
      patient_context: null,
      note_template: null,
      created_at: now,
      updated_at: now,
    };
    if (candidate.emr_session_id === null) {
      await this.deps.repositories.encounters.insert(candidate);
      return encounterView(candidate, false);
    }
    const stored = await this.deps.repositories.encounters.openForEmrSession({
      ...candidate,
      emr_session_id: candidate.emr_session_id,
    });
    return encounterView(stored, stored.id !== candidate.id);
  }

  /** Records the patient and their context, and locks the note template their noteConfig resolves to. */
  async setPatientContext(
    widgetSession: WidgetSession,
    encounterId: string,
    context: StoredPatientContext,
  ): Promise<PatientContextResult> {
    await this.require(widgetSession, encounterId);
    const patientId = context.patient.id;
    const resolved = resolveEncounterTemplate(context);
    const stored = await this.deps.repositories.encounters.setPatientContext(
      encounterId,
      {
        key: widgetPatientKey(widgetSession.partner.id, patientId),
        id: patientId,
        context: JSON.stringify(context),
        noteTemplate: storedEncounterTemplate(resolved),
      },
      this.deps.clock.now(),
    );
    if (!stored) {
      throw new AppError('patient_mismatch', 'This encounter belongs to another patient; open a new encounter.');
    }
    return { sessionId: encounterId, patientId, template: resolved.template, sectionKeys: resolved.sectionKeys };
  }

  /**
   * Records that the patient agreed to being recorded, by whom and how. The first record stands:
   * repeating the call (a retry, a second tab) returns it unchanged.
   */
  async recordConsent(
    widgetSession: WidgetSession,
    encounterId: string,
    consent: RecordConsentParams,
  ): Promise<WidgetConsent> {
    const encounter = await this.require(widgetSession, encounterId);
    const now = this.deps.clock.now();
    const stored = await this.deps.repositories.encounterConsents.recordOnce({
      encounter_id: encounter.id,
      method: consent.method,
      note: consent.note === undefined || consent.note === '' ? null : consent.note,
      clinician_id: widgetSession.clinician.id,
      recorded_at: now,
    });
    await this.deps.repositories.encounters.touch(encounter.id, now);
    return consentView(stored);
  }

  /**
   * The patient withdrew their consent: recording stops now and no audio token is minted until it is
   * recorded again. Withdrawing twice is not an error.
   */
  async withdrawConsent(widgetSession: WidgetSession, encounterId: string): Promise<void> {
    const encounter = await this.require(widgetSession, encounterId);
    await this.deps.deletion.consent(encounter.id);
    await this.deps.repositories.encounters.touch(encounter.id, this.deps.clock.now());
  }

  /** Deletes the encounter now with everything under it; its recording stops first. */
  async delete(widgetSession: WidgetSession, encounterId: string): Promise<void> {
    const encounter = await this.require(widgetSession, encounterId);
    await this.deps.deletion.encounter(encounter.id);
  }

  /** Audio needs the patient's recorded consent: the server refuses it, whatever the widget shows. */
  async mintRealtimeToken(
    widgetSession: WidgetSession,
    request: { encounterId: string; expiresInSeconds?: number },
  ): Promise<RealtimeToken> {
    const { encounterId } = request;
    await this.require(widgetSession, encounterId);
    if ((await this.deps.repositories.encounterConsents.get(encounterId)) === undefined) {
      throw new AppError(
        'consent_required',
        `Record the patient's consent to recording (POST /api/widget/encounters/${encounterId}/consent) before recording.`,
      );
    }
    return this.deps.realtimeTokens.mint({
      projectId: widgetSession.partner.project_id,
      environment: widgetSession.partner.environment,
      issuer: { kind: 'partner', id: widgetSession.partner.id },
      encounterId,
      notAfter: widgetSession.expiresAt,
      ...(request.expiresInSeconds === undefined ? {} : { expiresInSeconds: request.expiresInSeconds }),
    });
  }

  async transcript(widgetSession: WidgetSession, encounterId: string): Promise<WidgetTranscript> {
    const encounter = await this.require(widgetSession, encounterId);
    return { sessionId: encounter.id, ...(await this.deps.transcripts.forEncounter(encounter.id)) };
  }

  async state(widgetSession: WidgetSession, encounterId: string): Promise<WidgetEncounterState> {
    const encounter = await this.require(widgetSession, encounterId);
    const { template, sectionKeys } = encounterTemplateOf(encounter);
    const [consent, transcript, notes, documents] = await Promise.all([
      this.deps.repositories.encounterConsents.get(encounter.id),
      this.deps.transcripts.forEncounter(encounter.id),
      this.deps.notes.listFor(encounter),
      this.deps.documents.listFor(encounter),
    ]);
    const resumable = transcript.realtimeSessions.filter((session) => session.resumable).at(-1);
    return {
      sessionId: encounter.id,
      emrSessionId: encounter.emr_session_id,
      patientId: encounter.patient_id,
      patientContext: patientContextOf(encounter),
      template,
      sectionKeys,
      consent: consent === undefined ? null : consentView(consent),
      transcript: { sessionId: encounter.id, ...transcript },
      resumableRealtimeSessionId: resumable?.id ?? null,
      notes,
      documents,
      createdAt: new Date(encounter.created_at).toISOString(),
    };
  }

  private require(widgetSession: WidgetSession, encounterId: string): Promise<EncounterRow> {
    return requireOwnedEncounter(this.deps.repositories.encounters, widgetSession, encounterId);
  }
}
