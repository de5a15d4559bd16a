import type { StoredPatientContext } from '@chartwright/protocol';

import { AppError } from '../errors.js';
import type { WidgetSession } from '../partners/widget-sessions.js';
import type { EncounterRow, EncountersRepository } from '../store/encounters.js';

/**
 * The encounter, if the widget session may reach it: only the clinician who opened it, through
 * their partner's widget, and, when the widget token names an emrSessionId, only that EMR session's
 * encounter (a token minted for one visit opens no other). Anything else (unknown, another
 * partner's, another clinician's, another visit's) is the same 404, so a widget cannot learn which
 * encounters exist.
 */
export async function requireOwnedEncounter(
  encounters: EncountersRepository,
  widgetSession: WidgetSession,
  encounterId: string,
): Promise<EncounterRow> {
  const encounter = await encounters.getOwned(encounterId, {
    partnerId: widgetSession.partner.id,
    clinicianId: widgetSession.clinician.id,
  });
  const otherVisit = widgetSession.emrSessionId !== null && encounter?.emr_session_id !== widgetSession.emrSessionId;
  if (encounter === undefined || otherVisit) {
    throw new AppError('encounter_not_found', `No encounter ${encounterId} belongs to this widget session.`);
  }
  return encounter;
}

/** The PATIENT_CONTEXT fields stored with the encounter (validated when they were set); null until set. */
export function patientContextOf(encounter: EncounterRow): StoredPatientContext | null {
  return encounter.patient_context === null ? null : (JSON.parse(encounter.patient_context) as StoredPatientContext);
}
