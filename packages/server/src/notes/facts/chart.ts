/**
 * Facts from the chart: what the EMR sent as context (allergies, medications, diagnoses, lab
 * results, the chief complaint, the history as text), each citing the context
 * path it comes from. The writer files them under the template's own sections for them, marked as
 * from the chart, and reconciles them with what the visit said.
 */
import type { NoteContext } from '../generator.js';
import type { FactDraft } from './draft.js';
import { chartQuantity } from './quantity.js';

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

const fromChart = (path: string) => ({
  polarity: 'present' as const,
  subject: { type: 'patient' as const },
  speaker: 'unknown' as const,
  source: { turns: [] as number[], context: [path] },
});

/** "10 mg" → { value: 10, unit: 'mg' } when the dosage is that plain. */
function doseOf(dosage: string | undefined): { value: number; unit: string } | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Zµ%/]+)\s*$/.exec(dosage ?? '');
  return match === null ? undefined : { value: Number(match[1]), unit: match[2] ?? '' };
}

function medical(context: NonNullable<NoteContext['medical']>): FactDraft[] {
  const drafts: FactDraft[] = [];
  context.allergies?.forEach((allergy, index) => {
    const reaction = [allergy.reaction, allergy.severity].filter(present).join(', ');
    drafts.push({
      kind: 'allergy',
      text: allergy.name,
      substance: allergy.name,
      ...(reaction === '' ? {} : { reaction }),
      ...fromChart(`medical.allergies[${index}]`),
    });
  });
  context.medications?.forEach((medication, index) => {
    const dose = doseOf(medication.dosage);
    drafts.push({
      kind: 'medication',
      text: [medication.name, medication.dosage, medication.frequency].filter(present).join(' '),
      name: medication.name,
      ...(dose === undefined ? {} : { dose }),
      ...(present(medication.frequency) ? { frequency: medication.frequency } : {}),
      status: medication.status === 'discontinued' ? 'stopped' : 'active',
      ...fromChart(`medical.medications[${index}]`),
    });
  });
  context.diagnoses?.forEach((diagnosis, index) => {
    drafts.push({
      kind: 'history',
      category: 'medical',
      text: diagnosis.name,
      item: diagnosis.status === 'resolved' ? `${diagnosis.name} (resolved)` : diagnosis.name,
      ...fromChart(`medical.diagnoses[${index}]`),
    });
  });
  context.labResults?.forEach((lab, index) => {
    drafts.push({
      kind: 'result',
      text: present(lab.value) ? `${lab.name} ${chartQuantity(lab.value, lab.unit)}` : lab.name,
      test: lab.name,
      ...(present(lab.value) ? { value: lab.value } : {}),
      ...(present(lab.unit) ? { unit: lab.unit } : {}),
      ...(present(lab.normalRange) ? { interpretation: `reference range ${lab.normalRange}` } : {}),
      ...(present(lab.date) ? { date: lab.date } : {}),
      ...fromChart(`medical.labResults[${index}]`),
    });
  });
  if (present(context.medicalHistory)) {
    const text = context.medicalHistory.trim();
    drafts.push({ kind: 'history', category: 'medical', text, item: text, ...fromChart('medical.medicalHistory') });
  }
  if (present(context.chiefComplaint)) {
    const text = context.chiefComplaint.trim();
    drafts.push({ kind: 'narrative', topic: 'other', text, statement: text, ...fromChart('medical.chiefComplaint') });
  }
  return drafts;
}

/** The EMR's structured context; free text (`extra`) is read like the visit (see sheet.ts). */
export function chartFacts(context: NoteContext): FactDraft[] {
  return context.medical === undefined ? [] : medical(context.medical);
}
