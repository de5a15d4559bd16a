import type {
  StoredPatientContext,
  WidgetAppointment,
  WidgetMedicalContext,
  WidgetPatient,
} from '@chartwright/protocol';

/** A note heading and its text, in note order. */
export interface NoteHeading {
  label: string;
  text: string;
}

/** What documents are written from: the encounter's patient and context, its note, and who signs. */
export interface DocumentMaterial {
  /** Today, YYYY-MM-DD. */
  date: string;
  patient: WidgetPatient | null;
  medical: WidgetMedicalContext;
  appointment: WidgetAppointment | null;
  /** The note's sections, in note order; empty without a note. */
  note: readonly NoteHeading[];
  /** How the clinician signs: the name they gave, else their e-mail. */
  clinician: string;
  /** Who a referral is addressed to, when the clinician said. */
  recipient: string | null;
}

export function documentMaterial(parts: {
  now: number;
  context: StoredPatientContext | null;
  note: readonly NoteHeading[];
  clinician: string;
  recipient: string | null;
}): DocumentMaterial {
  return {
    date: new Date(parts.now).toISOString().slice(0, 10),
    patient: parts.context?.patient ?? null,
    medical: parts.context?.context ?? {},
    appointment: parts.context?.appointment ?? null,
    note: parts.note,
    clinician: parts.clinician,
    recipient: parts.recipient,
  };
}

/** What a note heading is about, so a document can put it where it belongs. */
export type NoteRole = 'history' | 'findings' | 'assessment' | 'plan';

// First match wins: "Assessment and Plan" is an assessment, "History and Physical" a history.
const ROLE_PATTERNS: readonly [NoteRole, RegExp][] = [
  ['assessment', /\b(assessment|impression|diagnos[ie]s|differential|problems?)\b/i],
  ['plan', /\b(plan|recommendations?|follow[- ]?up|management|treatment|next steps?|disposition|instructions)\b/i],
  ['history', /\b(subjective|history|complaint|hpi|presenting|symptoms?|interval|reason for visit)\b/i],
  ['findings', /\b(objective|exam|examination|findings|vitals?|results?|investigations?|labs?)\b/i],
];

export function noteRole(label: string): NoteRole | null {
  return ROLE_PATTERNS.find(([, pattern]) => pattern.test(label))?.[0] ?? null;
}

/** The texts of the note's headings in `role`, one paragraph each; "" when the note has none. */
export function noteText(material: DocumentMaterial, role: NoteRole): string {
  return material.note
    .filter((heading) => noteRole(heading.label) === role && heading.text.trim() !== '')
    .map((heading) => heading.text.trim())
    .join('\n\n');
}

/** Headings no role claims (e.g. "Social"), kept so nothing the clinician wrote is lost. */
export function otherNoteHeadings(material: DocumentMaterial): NoteHeading[] {
  return material.note.filter((heading) => noteRole(heading.label) === null && heading.text.trim() !== '');
}

const joined = (parts: readonly (string | undefined)[], separator: string) =>
  parts.filter((part): part is string => part !== undefined && part.trim() !== '').join(separator);

/** Active (or unstated) medications as "Name dose, frequency". */
export function medicationLines(material: DocumentMaterial): string[] {
  return (material.medical.medications ?? [])
    .filter((medication) => medication.status !== 'discontinued')
    .map((medication) => joined([joined([medication.name, medication.dosage], ' '), medication.frequency], ', '));
}

export function allergyLines(material: DocumentMaterial): string[] {
  return (material.medical.allergies ?? []).map((allergy) => {
    const named = allergy.severity === undefined ? allergy.name : `${allergy.name} (${allergy.severity})`;
    return allergy.reaction === undefined || allergy.reaction.trim() === '' ? named : `${named}: ${allergy.reaction}`;
  });
}

/** Active (or unstated) diagnoses, with their code. */
export function problemLines(material: DocumentMaterial): string[] {
  return (material.medical.diagnoses ?? [])
    .filter((diagnosis) => diagnosis.status !== 'resolved')
    .map((diagnosis) =>
      diagnosis.code === undefined || diagnosis.code.trim() === ''
        ? diagnosis.name
        : `${diagnosis.name} (${diagnosis.code})`,
    );
}

export function labLines(material: DocumentMaterial): string[] {
  return (material.medical.labResults ?? []).map((lab) => {
    const value = joined([lab.value, lab.unit], ' ');
    const detail = joined([lab.normalRange === undefined ? undefined : `normal ${lab.normalRange}`, lab.date], ', ');
    return `${lab.name}${value === '' ? '' : `: ${value}`}${detail === '' ? '' : ` (${detail})`}`;
  });
}

/** The visit's date: the appointment's when it has one, else today. */
export function visitDate(material: DocumentMaterial): string {
  const dateTime = material.appointment?.dateTime;
  return dateTime !== undefined && /^\d{4}-\d{2}-\d{2}/.test(dateTime) ? dateTime.slice(0, 10) : material.date;
}

/** The first of `candidates` with any text, trimmed; "" when none has. */
export function firstText(...candidates: readonly (string | undefined)[]): string {
  return candidates.find((candidate) => candidate !== undefined && candidate.trim() !== '')?.trim() ?? '';
}

/** Why the patient came: the chart's chief complaint, else the appointment's reason. */
export function presentingReason(material: DocumentMaterial): string {
  return firstText(material.medical.chiefComplaint, material.appointment?.reason);
}

/** A list as `- item` lines, or `empty` when there is nothing to list. */
export function bulletList(lines: readonly string[], empty: string): string {
  return lines.length === 0 ? empty : lines.map((line) => `- ${line}`).join('\n');
}

/** Text blocks separated by blank lines, empty ones left out. */
export function paragraphs(blocks: readonly (string | null | undefined | false)[]): string {
  return blocks.filter((block): block is string => typeof block === 'string' && block.trim() !== '').join('\n\n');
}

/** A section: its capitals heading and its body, or nothing when the body is empty. */
export function section(heading: string, body: string): string | null {
  return body.trim() === '' ? null : `${heading}\n${body.trim()}`;
}
