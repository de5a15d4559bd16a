import type { StoredPatientContext } from '@chartwright/protocol';

import { AppError } from '../errors.js';
import { resolveTemplate, type ResolvedTemplate } from '../notes/template-resolution.js';
import type { EncounterRow, EncountersRepository } from '../store/encounters.js';

/** Who may reach an encounter: the clinician who opened it, of the partner it was opened for. */
export interface EncounterOwner {
  partnerId: string;
  clinicianId: string;
}

/**
 * The encounter, if it belongs to `owner`. Anything else (unknown, another partner's, another
 * clinician's) is the same 404, so a widget cannot learn which encounters exist.
 */
export async function requireOwnedEncounter(
  encounters: EncountersRepository,
  owner: EncounterOwner,
  sessionId: string,
): Promise<EncounterRow> {
  const encounter = await encounters.getOwned(sessionId, owner);
  if (encounter === undefined) {
    throw new AppError('encounter_not_found', `No encounter ${sessionId} belongs to this widget session.`);
  }
  return encounter;
}

/** The PATIENT_CONTEXT fields stored with the encounter (validated when they were set); null until set. */
export function patientContextOf(encounter: EncounterRow): StoredPatientContext | null {
  return encounter.patient_context === null ? null : (JSON.parse(encounter.patient_context) as StoredPatientContext);
}

/** The template the encounter's notes use: locked by its noteConfig, SOAP without one. */
export function encounterTemplate(context: StoredPatientContext | null): ResolvedTemplate {
  return resolveTemplate(context?.noteConfig?.sections);
}
