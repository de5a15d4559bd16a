import type { RecordConsentParams, WidgetConsent, WidgetEncounterState, WidgetTranscript } from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import type { EncounterDocumentService } from '../documents/document-service.js';
import type { EncounterConsentRow } from '../store/encounter-consents.js';
import type { Repositories } from '../store/repositories.js';
import type { EncounterNoteService } from './encounter-notes.js';
import type { EncounterTranscripts } from './encounter-transcripts.js';
import { encounterTemplate, patientContextOf, requireOwnedEncounter, type EncounterOwner } from './owned-encounter.js';

const consentView = (row: EncounterConsentRow): WidgetConsent => ({
  method: row.method,
  note: row.note,
  clinicianId: row.clinician_id,
  recordedAt: new Date(row.recorded_at).toISOString(),
});

/** An encounter as a whole: the patient's consent, its transcript, and everything a relaunch restores. */
export class WidgetEncounterService {
  constructor(
    private readonly deps: {
      repositories: Repositories;
      clock: Clock;
      transcripts: EncounterTranscripts;
      notes: EncounterNoteService;
      documents: EncounterDocumentService;
      /** Idle, empty encounters are deleted after this long (NOTES_RETENTION_DAYS). */
      retentionMs: number;
    },
  ) {}

  /**
   * Records that the patient agreed to being recorded, by whom and how. The first record stands:
   * repeating the call (a retry, a second tab) returns it unchanged.
   */
  async recordConsent(owner: EncounterOwner, sessionId: string, consent: RecordConsentParams): Promise<WidgetConsent> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, owner, sessionId);
    const now = this.deps.clock.now();
    const stored = await this.deps.repositories.encounterConsents.recordOnce({
      encounter_id: encounter.id,
      method: consent.method,
      note: consent.note === undefined || consent.note === '' ? null : consent.note,
      clinician_id: owner.clinicianId,
      recorded_at: now,
    });
    await this.deps.repositories.encounters.touch(encounter.id, now);
    return consentView(stored);
  }

  async transcript(owner: EncounterOwner, sessionId: string): Promise<WidgetTranscript> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, owner, sessionId);
    return { sessionId: encounter.id, ...(await this.deps.transcripts.forEncounter(encounter.id)) };
  }

  async state(owner: EncounterOwner, sessionId: string): Promise<WidgetEncounterState> {
    const encounter = await requireOwnedEncounter(this.deps.repositories.encounters, owner, sessionId);
    const context = patientContextOf(encounter);
    const resolved = encounterTemplate(context);
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
      patientContext: context,
      template: resolved.template,
      sectionKeys: resolved.sectionKeys,
      consent: consent === undefined ? null : consentView(consent),
      transcript: { sessionId: encounter.id, ...transcript },
      resumableRealtimeSessionId: resumable?.id ?? null,
      notes,
      documents,
      createdAt: new Date(encounter.created_at).toISOString(),
    };
  }

  /**
   * Deletes encounters not opened, given a patient or consent for the retention period that hold
   * nothing any more (their notes, documents and realtime sessions went with their own retention),
   * and with them the patient context and consent.
   */
  async deleteExpired(): Promise<number> {
    return this.deps.repositories.encounters.deleteIdleAndEmpty(this.deps.clock.now() - this.deps.retentionMs);
  }
}
