import type { RecognizerInfo, WidgetClinician, WidgetSessionInfo } from '@chartwright/protocol';

import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ClinicianRow } from '../store/clinicians.js';
import type { PartnerRow } from '../store/partners.js';
import type { Repositories } from '../store/repositories.js';
import { partnerOrigins } from './partner-service.js';
import type { WidgetTokenSigner } from './signer.js';

/** The iframe's widget session: its widget token, verified, and the partner and clinician it names. */
export interface WidgetSession {
  partner: PartnerRow;
  clinician: ClinicianRow;
  emrSessionId: string | null;
  /** When the widget token expires, epoch ms. */
  expiresAt: number;
}

export function clinicianView(clinician: ClinicianRow): WidgetClinician {
  return {
    id: clinician.id,
    email: clinician.email,
    emrUserId: clinician.emr_user_id,
    displayName: clinician.display_name,
  };
}

/** How the clinician signs a document: their display name, else their e-mail. */
export const signatureOf = (clinician: ClinicianRow): string => clinician.display_name ?? clinician.email;

const invalidToken = () => new AppError('invalid_widget_token', 'The widget token is not valid.');

/** Widget sessions: which widget tokens open one, who the iframe works for, and who may frame it. */
export class WidgetSessionService {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly signer: WidgetTokenSigner,
    /** The recognizer that transcribes what the widget records, as the clinician is told. */
    private readonly recognizer: RecognizerInfo,
  ) {}

  async authenticate(token: string): Promise<WidgetSession> {
    const verified = await this.signer.verify(token);
    if (verified.expired || this.clock.now() >= verified.exp * 1000) {
      throw new AppError('widget_token_expired', 'The widget token has expired; ask the EMR for a new one.');
    }
    const partner = await this.repositories.partners.get(verified.partner);
    if (partner === undefined) throw invalidToken();
    if (partner.revoked_at !== null) throw new AppError('partner_revoked', 'The partner was revoked.');
    const clinician = await this.repositories.clinicians.get(verified.sub);
    if (clinician?.partner_id !== partner.id) throw invalidToken();
    return { partner, clinician, emrSessionId: verified.emrSessionId ?? null, expiresAt: verified.exp * 1000 };
  }

  info(widgetSession: WidgetSession): WidgetSessionInfo {
    const { partner, clinician } = widgetSession;
    return {
      clinician: clinicianView(clinician),
      partner: { id: partner.id, name: partner.name },
      environment: partner.environment,
      allowedOrigins: partnerOrigins(partner),
      emrSessionId: widgetSession.emrSessionId,
      expiresAt: new Date(widgetSession.expiresAt).toISOString(),
      recognizer: this.recognizer,
    };
  }

  /** Saves the clinician's display name (their profile): it signs their documents from now on. */
  async setDisplayName(widgetSession: WidgetSession, displayName: string): Promise<WidgetClinician> {
    const saved = await this.repositories.clinicians.setDisplayName(
      widgetSession.clinician.id,
      displayName,
      this.clock.now(),
    );
    if (saved === undefined) throw invalidToken();
    return clinicianView(saved);
  }

  /**
   * The origins that may frame the widget page of `token`: its partner's, for a genuine token even
   * once expired (so the page can still tell its EMR TOKEN_EXPIRED); null for a forged or malformed
   * token, or a revoked partner.
   */
  async framingOrigins(token: string): Promise<string[] | null> {
    try {
      const partner = await this.repositories.partners.get((await this.signer.verify(token)).partner);
      return partner?.revoked_at === null ? partnerOrigins(partner) : null;
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
  }
}
