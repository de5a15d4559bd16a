/**
 * Medications and allergies as chart lists: one line each, what was said in the visit reconciled
 * with what the EMR sent (a medication the visit stopped shows as stopped), and what comes only
 * from the chart marked as such.
 */
import type { Fact, FactOf } from '@chartwright/protocol';

import type { FactSheet } from '../facts/sheet.js';
import { doseText } from '../facts/medications.js';
import { CHART_MARK, fromChart, sentence, type Written } from './phrasing.js';

function medicationLine(medication: FactOf<'medication'>): string {
  const dose = medication.dose === undefined ? '' : ` ${doseText(medication.dose)}`;
  const base = medication.dose === undefined && fromChart(medication) ? medication.text : `${medication.name}${dose}`;
  const frequency =
    medication.frequency === undefined || base.includes(medication.frequency) ? '' : ` ${medication.frequency}`;
  return `${base}${frequency}${changeText(medication)}`;
}

/**
 * A change the clinician made is today's; a stop the patient tells of ("so I stopped") happened
 * before. Only a stop can be the patient's (medications.ts): a start or adjustment on a drug the
 * patient named first ("I take ibuprofen" … "I'll prescribe ibuprofen 800") is the clinician's.
 */
function changeText(medication: FactOf<'medication'>): string {
  if (medication.change === undefined || medication.change === 'continued') {
    return medication.status === 'stopped' ? ', stopped' : '';
  }
  const patients = medication.change === 'stopped' && medication.speaker !== 'clinician';
  return patients ? ', stopped by the patient' : `, ${medication.change} today`;
}

/** One fact per medication name: the visit's word over the chart's, and both cited. */
function reconcile(medications: readonly FactOf<'medication'>[]): { line: FactOf<'medication'>; facts: Fact[] }[] {
  const byName = new Map<string, { line: FactOf<'medication'>; facts: Fact[] }>();
  for (const medication of medications) {
    const key = medication.name.toLowerCase();
    const kept = byName.get(key);
    if (kept === undefined) byName.set(key, { line: medication, facts: [medication] });
    else byName.set(key, { line: fromChart(kept.line) ? medication : kept.line, facts: [...kept.facts, medication] });
  }
  return [...byName.values()];
}

export function chartLists(sheet: FactSheet): { medications: Written[]; allergies: Written[] } {
  // A medicine the chart already has as discontinued is not a current one; one stopped in the
  // visit is shown as stopped.
  const medications = sheet.facts.filter(
    (fact): fact is FactOf<'medication'> =>
      fact.kind === 'medication' && fact.polarity === 'present' && !(fromChart(fact) && fact.status === 'stopped'),
  );
  const allergies = sheet.facts.filter((fact): fact is FactOf<'allergy'> => fact.kind === 'allergy');
  return {
    medications: reconcile(medications).map(({ line, facts }) => ({
      text: sentence(`${medicationLine(line)}${facts.every(fromChart) ? CHART_MARK : ''}`),
      facts,
    })),
    allergies: allergies.map((allergy) => ({ text: allergyLine(allergy), facts: [allergy] })),
  };
}

/** One allergy as the list says it: denied and doubtful ones say so, so they never read as known. */
function allergyLine(allergy: FactOf<'allergy'>): string {
  if (allergy.substance === null) return 'No known allergies.';
  const reaction = allergy.reaction === undefined ? '' : ` (${allergy.reaction})`;
  if (allergy.polarity === 'absent') return sentence(`Not allergic to ${allergy.substance}`);
  const doubt = allergy.polarity === 'uncertain' ? 'Possible allergy to ' : '';
  return sentence(`${doubt}${allergy.substance}${reaction}${fromChart(allergy) ? CHART_MARK : ''}`);
}
