import type { WidgetDocumentKind } from '@chartwright/protocol';

import {
  allergyLines,
  bulletList,
  firstText,
  labLines,
  medicationLines,
  noteText,
  otherNoteHeadings,
  paragraphs,
  presentingReason,
  problemLines,
  section,
  visitDate,
  type DocumentMaterial,
} from './material.js';

/** A form's labelled field. */
export interface DocumentField {
  key: string;
  label: string;
  value: string;
}

/** A document as first written, before the clinician edits it. */
export interface DocumentDraft {
  title: string;
  content: string;
  /** A form's fields, in order; null for letters. */
  fields: DocumentField[] | null;
}

const NOT_RECORDED = 'Not recorded.';

/** "Re:" line of a letter: who it is about, with what identifies them in the recipient's records. */
function regarding(material: DocumentMaterial): string | null {
  const patient = material.patient;
  if (patient === null) return null;
  const parts = [
    patient.name,
    patient.dob === undefined || patient.dob.trim() === '' ? undefined : `born ${patient.dob.trim()}`,
    patient.healthCardNumber === undefined || patient.healthCardNumber.trim() === ''
      ? undefined
      : `health card ${patient.healthCardNumber.trim()}`,
  ];
  return `Re: ${parts.filter((part) => part !== undefined).join(', ')}`;
}

/**
 * A referral letter to a colleague: why, the history, findings, current medications, allergies and
 * problems from the chart, the assessment and the plan, in the order a consultant reads them.
 */
export function referralLetter(material: DocumentMaterial): DocumentDraft {
  const addressee = material.recipient;
  // "Dr. Lee, Respirology" is greeted as "Dear Dr. Lee,"; with no addressee typed, no "To:" line is made up.
  const greeting = addressee === null ? 'colleague' : (addressee.split(',')[0]?.trim() ?? addressee);
  const patientName = material.patient?.name ?? 'this patient';
  const assessment = noteText(material, 'assessment');
  const findings = paragraphs([noteText(material, 'findings'), bulletList(labLines(material), '')]);
  const history = paragraphs([
    noteText(material, 'history'),
    material.medical.medicalHistory === undefined || material.medical.medicalHistory.trim() === ''
      ? null
      : `Past medical history: ${material.medical.medicalHistory.trim()}`,
  ]);
  const content = paragraphs([
    material.date,
    addressee === null ? `From: ${material.clinician}` : `To: ${addressee}\nFrom: ${material.clinician}`,
    regarding(material),
    `Dear ${greeting},`,
    `Thank you for seeing ${patientName}, whom I am referring for your assessment.`,
    section('REASON FOR REFERRAL', firstText(presentingReason(material), assessment) || NOT_RECORDED),
    section('HISTORY', history || NOT_RECORDED),
    section('EXAMINATION AND RESULTS', findings),
    ...otherNoteHeadings(material).map((heading) => section(heading.label.toUpperCase(), heading.text)),
    section('ASSESSMENT', assessment),
    section('CURRENT MEDICATIONS', bulletList(medicationLines(material), 'None recorded.')),
    section('ALLERGIES', bulletList(allergyLines(material), 'None recorded.')),
    section('ACTIVE PROBLEMS', bulletList(problemLines(material), '')),
    section('PLAN', noteText(material, 'plan') || NOT_RECORDED),
    'Please do not hesitate to contact me if you need anything further.',
    `Kind regards,\n\n${material.clinician}`,
  ]);
  return { title: 'Referral letter', content, fields: null };
}

/**
 * A letter to the patient about their visit. It keeps to what the note and chart say, under plain
 * headings, and always ends with when to seek help.
 */
export function patientLetter(material: DocumentMaterial): DocumentDraft {
  const patient = material.patient;
  const greeting = firstText(patient?.firstName, patient?.name) || 'patient';
  const content = paragraphs([
    material.date,
    `Dear ${greeting},`,
    `Thank you for coming to see me on ${visitDate(material)}. This letter sums up your visit, so you can look back on what we discussed.`,
    section('WHY YOU CAME IN', presentingReason(material)),
    section('WHAT WE TALKED ABOUT', noteText(material, 'history')),
    section('WHAT WE FOUND', noteText(material, 'findings')),
    section('WHAT WE THINK IS GOING ON', noteText(material, 'assessment')),
    section('WHAT HAPPENS NEXT', noteText(material, 'plan') || 'We will contact you if anything else is needed.'),
    section('YOUR MEDICINES', bulletList(medicationLines(material), '')),
    section('YOUR ALLERGIES', bulletList(allergyLines(material), '')),
    'If your symptoms get worse, or you are worried, please contact the clinic. In an emergency, call your local emergency number.',
    `Kind regards,\n\n${material.clinician}`,
  ]);
  return { title: 'Letter to patient', content, fields: null };
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** A form's content: one `Label: value` line per field (`Label:` when empty), a value kept on its line. */
export function formContent(fields: readonly DocumentField[]): string {
  return fields.map((field) => `${field.label}: ${oneLine(field.value)}`.trimEnd()).join('\n');
}

/** An encounter summary as labelled fields, for EMRs that file forms rather than letters. */
export function encounterForm(material: DocumentMaterial): DocumentDraft {
  const patient = material.patient;
  const list = (lines: readonly string[]) => lines.join('; ');
  const fields: DocumentField[] = [
    { key: 'patient_name', label: 'Patient name', value: patient?.name ?? '' },
    { key: 'date_of_birth', label: 'Date of birth', value: patient?.dob ?? '' },
    { key: 'health_card_number', label: 'Health card number', value: patient?.healthCardNumber ?? '' },
    { key: 'visit_date', label: 'Date of visit', value: visitDate(material) },
    { key: 'reason_for_visit', label: 'Reason for visit', value: presentingReason(material) },
    { key: 'history', label: 'History', value: noteText(material, 'history') },
    { key: 'findings', label: 'Examination and results', value: noteText(material, 'findings') },
    { key: 'assessment', label: 'Assessment', value: noteText(material, 'assessment') },
    { key: 'plan', label: 'Plan', value: noteText(material, 'plan') },
    { key: 'medications', label: 'Current medications', value: list(medicationLines(material)) },
    { key: 'allergies', label: 'Allergies', value: list(allergyLines(material)) },
    { key: 'clinician', label: 'Clinician', value: material.clinician },
    { key: 'date_completed', label: 'Date completed', value: material.date },
  ].map((field) => ({ ...field, value: oneLine(field.value) }));
  return { title: 'Encounter summary form', content: formContent(fields), fields };
}

export const DRAFTS: Readonly<Record<WidgetDocumentKind, (material: DocumentMaterial) => DocumentDraft>> = {
  referral: referralLetter,
  letter: patientLetter,
  form: encounterForm,
};
