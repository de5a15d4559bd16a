/**
 * Canonical section groups, so a reference note's headings ("HPI:", "PHYSICAL EXAMINATION",
 * "VITALS REVIEWED", "ASSESSMENT AND PLAN" …) and a template's sections can be compared: per-group
 * ROUGE says whether generated content lands where clinicians put it. The groups refine the four
 * "divisions" ACI-Bench scores (subjective, objective_exam, objective_results,
 * assessment_and_plan) by keeping the review of systems apart from the history.
 */
import type { GeneratedSection } from '@chartwright/server/internal/notes/generator.js';

export type SectionGroup = 'history' | 'ros' | 'exam' | 'results' | 'assessment_plan';

export const SECTION_GROUPS: readonly SectionGroup[] = ['history', 'ros', 'exam', 'results', 'assessment_plan'];

export const SECTION_GROUP_LABELS: Readonly<Record<SectionGroup, string>> = {
  history: 'History (CC, HPI, past/social/family history, medications, allergies)',
  ros: 'Review of systems',
  exam: 'Exam and vitals',
  results: 'Results (labs, imaging, tests)',
  assessment_plan: 'Assessment and plan (incl. impression, instructions, follow-up)',
};

/**
 * Heading wording to group, tried in order on the upper-cased heading with everything but letters
 * turned into single spaces; the first rule that matches wins ("ASSESSMENT AND PLAN" is
 * assessment_plan, "PAST MEDICAL HISTORY" history, "REVIEW OF SYSTEMS" ros).
 */
const HEADING_RULES: readonly (readonly [RegExp, SectionGroup])[] = [
  [/\b(REVIEW OF SYSTEMS?|ROS)\b/, 'ros'],
  [/\b(EXAM|EXAMINATION|PE|VITALS?|VITAL SIGNS|OBJECTIVE|PHYSICAL FINDINGS)\b/, 'exam'],
  [/\b(RESULTS?|FINDINGS|LABS?|LABORATORY|IMAGING|RADIOLOGY|DIAGNOSTICS?|STUDIES|DATA)\b/, 'results'],
  [
    /\b(ASSESSMENT|PLAN|IMPRESSION|INSTRUCTIONS|FOLLOW ?UP|DIAGNOS[EI]S|DISPOSITION|PROCEDURES?|RECOMMENDATIONS?|A ?P|MEDICAL DECISION MAKING|MDM|DISCHARGE)\b/,
    'assessment_plan',
  ],
  [
    /\b(CHIEF COMPLAINT|CC|HPI|HX|HISTORY|PRESENT ILLNESS|MEDICATIONS?|MEDS|ALLERG(Y|IES)|SUBJECTIVE|REASON FOR (VISIT|REFERRAL|ADMISSION)|INTERVAL|HOSPITAL COURSE|IMMUNIZATIONS?|SOCIAL|FAMILY|SURGICAL|PROBLEM LIST)\b/,
    'history',
  ],
];

/** The group a heading belongs to, or null for a heading (or label) none of the rules knows. */
export function classifyHeading(heading: string): SectionGroup | null {
  const normalized = ` ${heading
    .toUpperCase()
    .replace(/[^A-Z]+/g, ' ')
    .trim()} `;
  for (const [pattern, group] of HEADING_RULES) if (pattern.test(normalized)) return group;
  return null;
}

/** Curated template section keys, mapped explicitly; other sections go by their label's wording. */
const SECTION_KEY_GROUPS: Readonly<Record<string, SectionGroup>> = {
  subjective: 'history',
  objective: 'exam',
  chief_complaint: 'history',
  history_of_present_illness: 'history',
  past_medical_history: 'history',
  medications: 'history',
  allergies: 'history',
  family_history: 'history',
  social_history: 'history',
  interval_history: 'history',
  history: 'history',
  reason_for_admission: 'history',
  hospital_course: 'history',
  reason_for_referral: 'history',
  review_of_systems: 'ros',
  physical_exam: 'exam',
  condition_at_discharge: 'exam',
  findings: 'exam',
  results: 'results',
  assessment: 'assessment_plan',
  plan: 'assessment_plan',
  procedures: 'assessment_plan',
  discharge_diagnoses: 'assessment_plan',
  discharge_medications: 'assessment_plan',
  follow_up: 'assessment_plan',
  patient_instructions: 'assessment_plan',
  questions: 'assessment_plan',
};

/** The group of a template section: by its key when curated, else by its label. */
export function groupOfTemplateSection(section: { key: string; label: string }): SectionGroup | null {
  return SECTION_KEY_GROUPS[section.key] ?? classifyHeading(section.label);
}

export interface NoteSection {
  /** The heading as written (without a trailing colon), or null for text before the first heading. */
  heading: string | null;
  /** The heading's group; text before any heading counts as history, as ACI-Bench's tagger does. */
  group: SectionGroup | null;
  /** The section's lines below (or after the colon of) the heading. */
  text: string;
}

const MAX_HEADING_WORDS = 6;

/**
 * A line that is a section heading: upper-case words (and & / - ,) alone on the line, optionally
 * with a trailing colon, or an upper-case heading followed by a colon and text ("CC: Knee pain.").
 * Only headings the group rules recognise split the note: an upper-case line such as "COPD." or
 * "HIV" inside an assessment is content. Markdown decoration (#, **) is ignored.
 */
export function parseHeadingLine(line: string): { heading: string; group: SectionGroup; rest: string } | null {
  const trimmed = line
    .trim()
    .replace(/^#{1,6}\s+/, '')
    .replace(/^\*\*(.+?)\*\*/, '$1')
    .trim();
  const match = /^([A-Z][A-Z &/,'()-]*?)\s*(?::\s*(.*))?$/.exec(trimmed);
  if (match === null) return null;
  const heading = (match[1] ?? '').trim();
  if (heading.split(/\s+/).length > MAX_HEADING_WORDS) return null;
  const group = classifyHeading(heading);
  if (group === null) return null;
  return { heading, group, rest: (match[2] ?? '').trim() };
}

/** Splits a note into its headed sections, in order. Lines keep their text; blank lines are kept. */
export function splitNoteSections(note: string): NoteSection[] {
  const sections: NoteSection[] = [];
  let current: { heading: string | null; group: SectionGroup | null; lines: string[] } = {
    heading: null,
    group: 'history',
    lines: [],
  };
  const flush = (): void => {
    const text = current.lines.join('\n').trim();
    if (current.heading !== null || text.length > 0) sections.push({ ...current, text });
  };
  for (const line of note.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = parseHeadingLine(line);
    if (heading === null) {
      current.lines.push(line);
      continue;
    }
    flush();
    current = { heading: heading.heading, group: heading.group, lines: heading.rest === '' ? [] : [heading.rest] };
  }
  flush();
  return sections;
}

/** The text of each group in a reference note: its sections' content (headings left out), in order. */
export function referenceGroupTexts(note: string): Map<SectionGroup, string> {
  const parts = new Map<SectionGroup, string[]>();
  for (const section of splitNoteSections(note)) {
    if (section.group === null || section.text === '') continue;
    const list = parts.get(section.group) ?? [];
    list.push(section.text);
    parts.set(section.group, list);
  }
  return new Map([...parts].map(([group, texts]) => [group, texts.join('\n\n')]));
}

/**
 * The text of each group in a generated note: its sections' sentences one a line (the way the
 * note is rendered), headings left out; sections in no group are not scored.
 */
export function generatedGroupTexts(sections: readonly GeneratedSection[]): Map<SectionGroup, string> {
  const parts = new Map<SectionGroup, string[]>();
  for (const section of sections) {
    const group = groupOfTemplateSection(section);
    if (group === null || section.sentences.length === 0) continue;
    const list = parts.get(group) ?? [];
    list.push(section.sentences.map((sentence) => sentence.text).join('\n'));
    parts.set(group, list);
  }
  return new Map([...parts].map(([group, texts]) => [group, texts.join('\n\n')]));
}
