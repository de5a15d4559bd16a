import type {
  PatientContextResult,
  RealtimeToken,
  SetPatientContextRequest,
  WidgetEncounter,
  WidgetSessionInfo,
} from '@chartwright/protocol';

import type { RealtimeTokenService } from '../auth/realtime-tokens.js';
import { generateId } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { resolveTemplate } from '../notes/template-resolution.js';
import type { ClinicianRow } from '../store/clinicians.js';
import type { EncounterRow } from '../store/encounters.js';
import type { PartnerRow } from '../store/partners.js';
import type { Repositories } from '../store/repositories.js';
import { requireOwnedEncounter } from './owned-encounter.js';
import { partnerOrigins } from './partners.js';
import type { WidgetTokenSigner } from './signer.js';

/** The iframe's caller, established from its widget token. */
export interface WidgetPrincipal {
  partner: PartnerRow;
  clinician: ClinicianRow;
  emrSessionId: string | null;
  /** Epoch ms. */
  expiresAt: number;
}

/** Only the clinician who opened an encounter reaches it, and only through their partner's widget. */
export const ownerOf = (principal: WidgetPrincipal) => ({
  partnerId: principal.partner.id,
  clinicianId: principal.clinician.id,
});

/** Namespaced so the EMR's raw id is never used as an account patient id (interface: Patient id semantics). */
export const widgetPatientKey = (partnerId: string, patientId: string) => `widget_${partnerId}_${patientId}`;

const encounterView = (row: EncounterRow, resumed: boolean): WidgetEncounter => ({
  sessionId: row.id,
  emrSessionId: row.emr_session_id,
  resumed,
  patientId: row.patient_id,
  createdAt: new Date(row.created_at).toISOString(),
});

/** What the iframe may do with its token: learn who it works for, open encounters, set patients, stream audio. */
export class WidgetSessionService {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly signer: WidgetTokenSigner,
    private readonly realtimeTokens: RealtimeTokenService,
  ) {}

  async authenticate(token: string): Promise<WidgetPrincipal> {
    const verified = await this.signer.verify(token);
    if (verified.expired || this.clock.now() >= verified.exp * 1000) {
      throw new AppError('widget_token_expired', 'The widget token has expired; ask the EMR for a new one.');
    }
    const partner = await this.repositories.partners.get(verified.partner);
    if (partner === undefined) throw new AppError('invalid_widget_token', 'The widget token is not valid.');
    if (partner.revoked_at !== null) throw new AppError('partner_revoked', 'The partner was revoked.');
    const clinician = await this.repositories.clinicians.get(verified.sub);
    if (clinician?.partner_id !== partner.id) {
      throw new AppError('invalid_widget_token', 'The widget token is not valid.');
    }
    return { partner, clinician, emrSessionId: verified.emrSessionId ?? null, expiresAt: verified.exp * 1000 };
  }

  info(principal: WidgetPrincipal): WidgetSessionInfo {
    return {
      clinician: {
        id: principal.clinician.id,
        email: principal.clinician.email,
        emrUserId: principal.clinician.emr_user_id,
      },
      partner: { id: principal.partner.id, name: principal.partner.name },
      environment: principal.partner.environment,
      allowedOrigins: partnerOrigins(principal.partner),
      emrSessionId: principal.emrSessionId,
      expiresAt: new Date(principal.expiresAt).toISOString(),
    };
  }

  /**
   * With an emrSessionId in the token, reopens that EMR session's encounter (the same sessionId on
   * every relaunch, never shared with another partner or clinician); without one, opens a new one.
   */
  async openEncounter(principal: WidgetPrincipal): Promise<WidgetEncounter> {
    const now = this.clock.now();
    const candidate: EncounterRow = {
      id: generateId('ses'),
      project_id: principal.partner.project_id,
      environment: principal.partner.environment,
      partner_id: principal.partner.id,
      clinician_id: principal.clinician.id,
      emr_session_id: principal.emrSessionId,
      patient_key: null,
      patient_id: null,
      patient_context: null,
      created_at: now,
      updated_at: now,
    };
    if (candidate.emr_session_id === null) {
      await this.repositories.encounters.insert(candidate);
      return encounterView(candidate, false);
    }
    const stored = await this.repositories.encounters.openForEmrSession({
      ...candidate,
      emr_session_id: candidate.emr_session_id,
    });
    return encounterView(stored, stored.id !== candidate.id);
  }

  async setPatientContext(
    principal: WidgetPrincipal,
    sessionId: string,
    context: SetPatientContextRequest,
  ): Promise<PatientContextResult> {
    await this.requireEncounter(principal, sessionId);
    const patientId = context.patient.id;
    const stored = await this.repositories.encounters.setPatientContext(
      sessionId,
      { key: widgetPatientKey(principal.partner.id, patientId), id: patientId, context: JSON.stringify(context) },
      this.clock.now(),
    );
    if (!stored) {
      throw new AppError('patient_mismatch', 'This encounter belongs to another patient; open a new encounter.');
    }
    const resolved = resolveTemplate(context.noteConfig?.sections);
    return { sessionId, patientId, template: resolved.template, sectionKeys: resolved.sectionKeys };
  }

  /** Audio needs the patient's recorded consent: the server refuses it, whatever the widget shows. */
  async mintRealtimeToken(
    principal: WidgetPrincipal,
    request: { sessionId: string; expiresInSeconds?: number },
  ): Promise<RealtimeToken> {
    await this.requireEncounter(principal, request.sessionId);
    if ((await this.repositories.encounterConsents.get(request.sessionId)) === undefined) {
      throw new AppError(
        'consent_required',
        `Record the patient's consent to recording (POST /api/widget/encounters/${request.sessionId}/consent) before recording.`,
      );
    }
    return this.realtimeTokens.mint({
      projectId: principal.partner.project_id,
      environment: principal.partner.environment,
      issuer: { kind: 'partner', id: principal.partner.id },
      encounterId: request.sessionId,
      notAfter: principal.expiresAt,
      ...(request.expiresInSeconds === undefined ? {} : { expiresInSeconds: request.expiresInSeconds }),
    });
  }

  private async requireEncounter(principal: WidgetPrincipal, sessionId: string): Promise<EncounterRow> {
    return requireOwnedEncounter(this.repositories.encounters, ownerOf(principal), sessionId);
  }
}
