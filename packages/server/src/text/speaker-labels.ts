/** Speaker labels in transcripts (`[doctor]`, `Dr. Smith:`, a label alone on its line) and the role each names. */
import type { Speaker } from './conversation.js';
import { stripTimestamps } from './timestamps.js';

/** Words that make a label a speaker label, whatever else it says (`Dr. Lee`, `Nurse Ana`, `PT`). */
const CLINICIAN_WORDS = new Set([
  'doctor',
  'dr',
  'doc',
  'physician',
  'clinician',
  'provider',
  'np',
  'pa',
  'md',
  'practitioner',
  'surgeon',
  'resident',
  'attending',
  'gp',
  'consultant',
  'specialist',
]);
const PATIENT_WORDS = new Set(['patient', 'pt', 'client']);
const OTHER_WORDS = new Set([
  'nurse',
  'rn',
  'lpn',
  'ma',
  'assistant',
  'guest',
  'family',
  'mother',
  'father',
  'mom',
  'mum',
  'dad',
  'parent',
  'wife',
  'husband',
  'spouse',
  'partner',
  'son',
  'daughter',
  'sister',
  'brother',
  'caregiver',
  'carer',
  'relative',
  'friend',
  'interpreter',
  'translator',
  'scribe',
  'student',
  'technician',
  'tech',
  'pharmacist',
  'therapist',
]);
/** Labels that are role-neutral but still speaker labels (`Speaker 1:`, `Person B:`). */
const NEUTRAL_WORDS = new Set(['speaker', 'person', 'participant', 'voice', 'unknown', 'other']);
/** Bracketed annotations that are not speakers (`[inaudible]`, `[laughs]`): dropped from the text. */
const ANNOTATIONS = new Set([
  'inaudible',
  'unintelligible',
  'crosstalk',
  'laughs',
  'laughter',
  'laughing',
  'pause',
  'silence',
  'music',
  'noise',
  'cough',
  'coughs',
  'coughing',
  'applause',
  'background noise',
  'indistinct',
  'overlapping',
]);

function labelWords(label: string): string[] {
  return label
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

function isRoleWord(word: string): boolean {
  return CLINICIAN_WORDS.has(word) || PATIENT_WORDS.has(word) || OTHER_WORDS.has(word) || NEUTRAL_WORDS.has(word);
}

/**
 * The role behind a label. Companions are checked first, so `patient_guest` or `patient's mother`
 * are `other`, not the patient; a bare name says nothing about the role and stays `unknown`.
 */
export function speakerRole(label: string): Speaker {
  const words = labelWords(label);
  if (words.some((word) => OTHER_WORDS.has(word))) return 'other';
  if (words.some((word) => CLINICIAN_WORDS.has(word))) return 'clinician';
  if (words.some((word) => PATIENT_WORDS.has(word))) return 'patient';
  return 'unknown';
}

/** A label as written before a colon: 1–4 name-like words, `Dr. Smith`, `Patient 2`, `patient_guest`. */
const PREFIX_LABEL = /^([A-Za-z][A-Za-z0-9_.'’-]*(?: [A-Za-z0-9][A-Za-z0-9_.'’-]*){0,3})\s*:\s*(.*)$/;
/** A bracketed tag anywhere in a line: `[doctor]`, `[Patient_guest]`, `[Dr. Lee]`. */
const BRACKET_TAG = /\[([A-Za-z][A-Za-z0-9_.'’ -]{0,40})\]\s*:?\s*/g;

/** Words that end in a colon in notes and prose without naming a speaker. */
const HEADINGS = new Set(
  (
    'note notes plan assessment subjective objective impression diagnosis diagnoses history medications ' +
    'allergies exam examination results summary reason cc hpi ros vitals instructions followup follow up time ' +
    'date re subject question answer q a example warning important update'
  ).split(' '),
);

function isSpeakerPrefix(label: string, repeatedNames: ReadonlySet<string>): boolean {
  const words = labelWords(label);
  if (words.length === 0) return false;
  // A role word anywhere (`Dr. Smith`, `Nurse Ana`, `Speaker 1`), or a name the transcript uses as
  // a prefix on several lines (`Sarah:`): a one-off `Note:` or `Plan:` in prose is not a speaker.
  if (words.some(isRoleWord) || repeatedNames.has(label.toLowerCase())) return true;
  // Once a transcript is known to be written `Name: text`, a capitalised name said only once
  // (`Tom:`) is a speaker too, unless it is a heading word.
  return (
    repeatedNames.size > 0 && words.length <= 2 && /^[A-Z]/.test(label) && !words.some((word) => HEADINGS.has(word))
  );
}

export function namesUsedAsPrefixesRepeatedly(lines: readonly string[]): Set<string> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const match = PREFIX_LABEL.exec(line);
    const label = match?.[1]?.toLowerCase();
    // Long labels are more likely a clause ending in a colon than a name.
    if (label !== undefined && label.split(' ').length <= 2 && !labelWords(label).some((word) => HEADINGS.has(word))) {
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
  }
  return new Set([...counts].filter(([, count]) => count >= 2).map(([label]) => label));
}

export interface Piece {
  label: string | null;
  text: string;
}

/** One line → the labeled pieces it holds (a line may carry several `[tag]`s), or plain text. */
export function splitLabels(line: string, repeatedNames: ReadonlySet<string>): Piece[] {
  const pieces: Piece[] = [];
  let rest = line;
  let label: string | null = null;
  const tags = [...line.matchAll(BRACKET_TAG)].filter((tag) => {
    const inner = (tag[1] ?? '').trim();
    return !ANNOTATIONS.has(inner.toLowerCase());
  });
  if (tags.length > 0) {
    let cursor = 0;
    for (const tag of tags) {
      const inner = (tag[1] ?? '').trim();
      const start = tag.index;
      // A tag in the middle of a line only counts when it names a role (`… [patient] yes`), so a
      // bracketed aside such as `[sic]` stays text; at the start any tag is a speaker.
      if (start !== 0 && !labelWords(inner).some(isRoleWord)) continue;
      const before = line.slice(cursor, start).trim();
      if (before !== '' || label !== null) pieces.push({ label, text: cleanText(before) });
      label = inner;
      cursor = start + tag[0].length;
    }
    rest = line.slice(cursor);
    if (label !== null) {
      pieces.push({ label, text: cleanText(stripTimestamps(rest)) });
      return pieces.filter((piece) => piece.label !== null || piece.text !== '');
    }
  }
  const prefix = PREFIX_LABEL.exec(rest);
  if (prefix !== null && isSpeakerPrefix(prefix[1] ?? '', repeatedNames)) {
    return [{ label: (prefix[1] ?? '').trim(), text: cleanText(stripTimestamps(prefix[2] ?? '')) }];
  }
  // A label alone on its line (`DOCTOR`, `Dr. Smith`, `Patient:`) introduces the lines after it.
  // Without a colon it must start or end with a role word, so a short prose line ("Patient doing
  // well") is not mistaken for one.
  const alone = /^([A-Za-z][A-Za-z0-9_.'’ -]{0,40}?)\s*(:?)$/.exec(rest);
  if (alone !== null) {
    const words = labelWords(alone[1] ?? '');
    const first = words[0] ?? '';
    const last = words.at(-1) ?? '';
    const shaped =
      alone[2] === ':' ? words.some(isRoleWord) : words.length <= 2 && (isRoleWord(first) || isRoleWord(last));
    if (words.length > 0 && words.length <= 3 && shaped) return [{ label: (alone[1] ?? '').trim(), text: '' }];
  }
  return [{ label: null, text: cleanText(rest) }];
}

/** Removes bracketed annotations and collapses whitespace. */
function cleanText(text: string): string {
  return text
    .replace(/\[([^\]]{1,40})\]/g, (whole, inner: string) =>
      ANNOTATIONS.has(inner.trim().toLowerCase()) ? ' ' : whole,
    )
    .replace(/\s+/g, ' ')
    .trim();
}
