import type { StoredPatientContext } from '@chartwright/protocol';

import { resolveTemplate, type ResolvedTemplate } from '../notes/template-resolution.js';
import type { EncounterRow } from '../store/encounters.js';

/**
 * The template an encounter's notes use, locked by its noteConfig (SOAP without one): resolved here
 * and nowhere else, when the patient context is set, and stored with the encounter so notes, host
 * keys and the encounter's state all read the one it was set with.
 */
export function resolveEncounterTemplate(context: Pick<StoredPatientContext, 'noteConfig'>): ResolvedTemplate {
  return resolveTemplate(context.noteConfig?.sections);
}

/** What an encounter without a patient context uses: SOAP, under its own keys. */
const BEFORE_PATIENT_CONTEXT = resolveEncounterTemplate({});

/** How a resolved template is stored, in encounters.note_template. */
export function storedEncounterTemplate(resolved: ResolvedTemplate): string {
  return JSON.stringify(resolved);
}

/** The template stored with the encounter when its patient context was set. */
export function encounterTemplateOf(encounter: Pick<EncounterRow, 'note_template'>): ResolvedTemplate {
  return encounter.note_template === null
    ? BEFORE_PATIENT_CONTEXT
    : (JSON.parse(encounter.note_template) as ResolvedTemplate);
}
