import type { Conversation, ConversationSentence, ConversationTurn, Speaker } from './conversation.js';

/**
 * Turns a transcript, in whatever common shape it arrives, into speaker turns split into sentences.
 *
 * Shapes understood: `[doctor] …` tags (several on one line too), `Doctor:` / `Dr. Smith:` / `Pt:`
 * prefixes, a speaker label alone on its line followed by its text, timestamps before or after the
 * label (`[00:01:23]`, `00:01:23`, `(12:03)`), and unlabeled prose (one `unknown` speaker, a turn per
 * paragraph). Anything else degrades to unlabeled prose: this function never throws, because a
 * transcript the parser does not understand must still produce a (plainer) note.
 */
export function parseConversation(text: string): Conversation {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => stripTimestamps(line.replace(/[\t\f\v\u00a0]+/g, ' ').trim()));
  const repeatedNames = namesUsedAsPrefixesRepeatedly(lines);
  const drafts: { label: string | null; lines: string[] }[] = [];
  let current: { label: string | null; lines: string[] } | null = null;

  for (const line of lines) {
    if (line === '') {
      // A blank line ends a paragraph: unlabeled prose turns are paragraphs; labeled turns go on.
      if (current !== null && current.label === null) current = null;
      else current?.lines.push('');
      continue;
    }
    const pieces = splitLabels(line, repeatedNames);
    for (const piece of pieces) {
      if (piece.label !== null) {
        current = { label: piece.label, lines: [] };
        drafts.push(current);
      } else if (current === null) {
        current = { label: null, lines: [] };
        drafts.push(current);
      }
      if (piece.text !== '') current.lines.push(piece.text);
    }
  }

  const turns: ConversationTurn[] = [];
  for (const draft of drafts) {
    const paragraphs = paragraphsOf(draft.lines);
    if (paragraphs.length === 0) continue;
    const label = draft.label;
    const speaker: Speaker = label === null ? 'unknown' : speakerRole(label);
    const sentences: ConversationSentence[] = [];
    for (const paragraph of paragraphs) {
      for (const sentence of splitSentences(paragraph)) sentences.push({ index: sentences.length, text: sentence });
    }
    turns.push({ index: turns.length, speaker, speakerLabel: label, text: paragraphs.join('\n\n'), sentences });
  }
  return { turns };
}

/** Lines of one turn → its paragraphs, whitespace collapsed (wrapped lines are one paragraph). */
function paragraphsOf(lines: readonly string[]): string[] {
  const paragraphs: string[] = [];
  let buffer: string[] = [];
  const flush = () => {
    const paragraph = buffer.join(' ').replace(/\s+/g, ' ').trim();
    if (paragraph !== '') paragraphs.push(paragraph);
    buffer = [];
  };
  for (const line of lines) {
    if (line === '') flush();
    else buffer.push(line);
  }
  flush();
  return paragraphs;
}

// ---------------------------------------------------------------------------------------------
// Timestamps

const CLOCK = String.raw`\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?`;
/** A timestamp at the start or end of a line, bracketed, parenthesised or bare, with a dash after it. */
const LEADING_TIMESTAMP = new RegExp(String.raw`^(?:\[${CLOCK}\]|\(${CLOCK}\)|${CLOCK}(?=\s|$))\s*(?:[-–—|>]+\s*)?`);
const TRAILING_TIMESTAMP = new RegExp(String.raw`\s*(?:\[${CLOCK}\]|\(${CLOCK}\))$`);
/** A timestamp between a label and its colon: `Doctor [00:01:23]:` or `Doctor (12:03):`. */
const INNER_TIMESTAMP = new RegExp(
  String.raw`^([A-Za-z][\w.'’ -]{0,40}?)\s*(?:\[${CLOCK}\]|\(${CLOCK}\)|${CLOCK})\s*:`,
);

function stripTimestamps(line: string): string {
  let result = line;
  // Repeated because a line may carry a range (`00:01 - 00:05`) or a timestamp on both sides of a tag.
  for (let round = 0; round < 3; round++) {
    const next = result.replace(LEADING_TIMESTAMP, '').replace(TRAILING_TIMESTAMP, '');
    if (next === result) break;
    result = next;
  }
  return result.replace(INNER_TIMESTAMP, '$1:').trim();
}

// ---------------------------------------------------------------------------------------------
// Speaker labels

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

function namesUsedAsPrefixesRepeatedly(lines: readonly string[]): Set<string> {
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

interface Piece {
  label: string | null;
  text: string;
}

/** One line → the labeled pieces it holds (a line may carry several `[tag]`s), or plain text. */
function splitLabels(line: string, repeatedNames: ReadonlySet<string>): Piece[] {
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

// ---------------------------------------------------------------------------------------------
// Sentences

/** Abbreviations after which a period never ends a sentence: titles and Latin connectives. */
const NEVER_FINAL = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'mx',
  'prof',
  'st',
  'sr',
  'jr',
  'e.g',
  'i.e',
  'vs',
  'cf',
  'approx',
  'fig',
  'no',
  'nos',
]);
/** Abbreviations that may end a sentence: split after them only when a capital letter follows. */
const MAYBE_FINAL = new Set([
  'etc',
  'a.m',
  'p.m',
  'b.i.d',
  't.i.d',
  'q.i.d',
  'q.d',
  'p.o',
  'p.r.n',
  'q.h.s',
  'h.s',
  'o.d',
  'o.s',
  'o.u',
  'inc',
  'ltd',
  'min',
  'hr',
  'hrs',
  'wk',
  'wks',
  'mo',
  'yr',
  'yrs',
  'mg',
  'ml',
  'mcg',
  'kg',
  'lb',
  'lbs',
  'oz',
]);

/**
 * Splits a paragraph into sentences. Two styles have to work: ASR transcripts such as ACI-Bench's,
 * lower-cased with punctuation set off by spaces ("i'm okay . how are you ?"), where a spaced
 * period always ends a sentence; and ordinary prose, where a period attached to a word ends one only
 * if it is not an abbreviation ("Dr.", "e.g.", "b.i.d.") or a decimal ("2.5 mg"), and the next word
 * starts like a sentence. Never returns an empty sentence; returns [] only for blank input.
 */
export function splitSentences(paragraph: string): string[] {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  if (text === '') return [];
  const lowerCaseStyle = !/[A-Z]/.test(text);
  const sentences: string[] = [];
  let start = 0;
  const boundary = /([.?!…]+)(["'”’)\]]*)( +)/g;
  for (let match = boundary.exec(text); match !== null; match = boundary.exec(text)) {
    const punctuation = match[1] ?? '';
    const end = match.index + punctuation.length + (match[2] ?? '').length;
    const next = text.slice(match.index + match[0].length);
    if (!endsSentence(text.slice(start, match.index), punctuation, next, lowerCaseStyle)) continue;
    const sentence = text.slice(start, end).trim();
    if (sentence !== '') sentences.push(sentence);
    start = match.index + match[0].length;
  }
  const last = text.slice(start).trim();
  if (last !== '') sentences.push(last);
  // A lone punctuation "sentence" (". ." in ASR output) joins the one before it.
  const merged: string[] = [];
  for (const sentence of sentences) {
    const previous = merged.at(-1);
    if (!/[\p{L}\p{N}]/u.test(sentence) && previous !== undefined)
      merged[merged.length - 1] = `${previous} ${sentence}`;
    else merged.push(sentence);
  }
  return merged;
}

function endsSentence(before: string, punctuation: string, next: string, lowerCaseStyle: boolean): boolean {
  if (next === '') return false;
  if (punctuation !== '.') return true;
  // Spaced punctuation (ASR style): the period stands alone, so it is a full stop.
  if (before.endsWith(' ') || before === '') return true;
  const word = (/(\S+)$/.exec(before)?.[1] ?? '').replace(/^["'“‘(]+/, '').toLowerCase();
  const nextStartsSentence = /^["'“‘(]*[A-Z0-9]/.test(next);
  if (NEVER_FINAL.has(word)) return false;
  // An initial ("J. Smith") or a run of single letters with dots ("b.i.d.") is an abbreviation.
  if (/^[a-z]$/.test(word)) return false;
  if (MAYBE_FINAL.has(word) || /^(?:[a-z]\.)+[a-z]$/.test(word)) return /^["'“‘(]*[A-Z]/.test(next);
  return nextStartsSentence || lowerCaseStyle;
}
