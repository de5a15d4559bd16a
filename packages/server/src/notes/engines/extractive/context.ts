import type { NoteContext } from '../../generator.js';

import type { Kind } from './lexicons.js';
import { splitSentences } from '../../../text/sentences.js';

/**
 * Note sentences from the caller's context: the EMR's allergy, medication, problem and lab lists,
 * its chief complaint and history, and free-text extra context. They are stated as given, each
 * citing the context field it comes from, and go to the section their kind routes to.
 */
export interface ContextSentence {
  kind: Kind;
  text: string;
  path: string;
}

const sentence = (text: string) => {
  const trimmed = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.;,]+$/, '');
  return trimmed === '' ? '' : `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
};

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

export function contextSentences(context: NoteContext): ContextSentence[] {
  const out: ContextSentence[] = [];
  const medical = context.medical;
  const add = (kind: Kind, text: string, path: string) => {
    const line = sentence(text);
    if (line !== '') out.push({ kind, text: line, path });
  };
  if (present(medical?.chiefComplaint)) add('chief_complaint', medical.chiefComplaint, 'medical.chiefComplaint');
  medical?.allergies?.forEach((allergy, index) => {
    const details = [allergy.reaction, allergy.severity].filter(present).join(', ');
    add('allergies', details === '' ? allergy.name : `${allergy.name}: ${details}`, `medical.allergies[${index}]`);
  });
  medical?.medications?.forEach((medication, index) => {
    const parts = [medication.name, medication.dosage, medication.frequency].filter(present).join(' ');
    add(
      'medications',
      medication.status === 'discontinued' ? `${parts} (discontinued)` : parts,
      `medical.medications[${index}]`,
    );
  });
  medical?.diagnoses?.forEach((diagnosis, index) => {
    const code = present(diagnosis.code) ? ` (${diagnosis.code})` : '';
    const status = diagnosis.status === 'resolved' ? ', resolved' : '';
    add('past_history', `${diagnosis.name}${code}${status}`, `medical.diagnoses[${index}]`);
  });
  medical?.labResults?.forEach((lab, index) => {
    const value = [lab.value, lab.unit].filter(present).join(' ');
    const extras = [present(lab.normalRange) ? `range ${lab.normalRange}` : '', present(lab.date) ? lab.date : '']
      .filter((part) => part !== '')
      .join(', ');
    const text = `${lab.name}${value === '' ? '' : `: ${value}`}${extras === '' ? '' : ` (${extras})`}`;
    add('results', text, `medical.labResults[${index}]`);
  });
  if (present(medical?.medicalHistory)) {
    for (const line of splitSentences(medical.medicalHistory)) add('past_history', line, 'medical.medicalHistory');
  }
  return out;
}
