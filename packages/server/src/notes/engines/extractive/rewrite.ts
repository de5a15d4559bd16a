import type { Speaker } from '../../../text/conversation.js';

import { abbreviateUnits, digitize } from '../../../text/spoken-numbers.js';
import { detokenize, isWord } from './text.js';

/**
 * Speech → note style: the patient's "I/my" and the clinician's "you/your" become the patient in
 * the third person (she/he when the visit says which, "the patient" otherwise), verbs agree with
 * the new subject, spoken numbers become digits and spelled-out units their abbreviations. The
 * clinician's own "I/we" stay: notes are written in the clinician's voice ("I recommended …").
 */

export type Gender = 'female' | 'male' | null;

interface Person {
  subject: string;
  object: string;
  possessive: string;
  pronoun: string;
  reflexive: string;
  /** Whether verbs after the subject take the singular (-s) or the plural form. */
  singular: boolean;
}

const THE_PATIENT: Person = {
  subject: 'the patient',
  object: 'the patient',
  possessive: "the patient's",
  pronoun: "the patient's",
  reflexive: 'themselves',
  singular: true,
};
const THEY: Person = {
  subject: 'they',
  object: 'them',
  possessive: 'their',
  pronoun: 'theirs',
  reflexive: 'themselves',
  singular: false,
};

/**
 * The words for the patient. With a known gender, she/he throughout; without one, "the patient"
 * the first time in a sentence and singular "they" after, so a sentence does not read "the
 * patient's throat has been hurting the patient".
 */
function personFor(gender: Gender, mentioned: boolean): Person {
  if (gender === 'female')
    return { subject: 'she', object: 'her', possessive: 'her', pronoun: 'hers', reflexive: 'herself', singular: true };
  if (gender === 'male')
    return { subject: 'he', object: 'him', possessive: 'his', pronoun: 'his', reflexive: 'himself', singular: true };
  return mentioned ? THEY : THE_PATIENT;
}

/** Adverbs that may stand between a subject and its verb ("I still forget"). */
const ADVERBS = new Set([
  'also',
  'really',
  'just',
  'still',
  'only',
  'usually',
  'always',
  'never',
  'often',
  'sometimes',
  'actually',
  'definitely',
  'even',
  'probably',
  'normally',
  'generally',
  'mostly',
  'already',
  'recently',
  'certainly',
  'occasionally',
  'rarely',
  'ever',
  'currently',
  'typically',
  'kind',
  'now',
  'too',
]);

/** Verbs in the base form that take an -s with a third-person subject ("I take" → "she takes"). */
const BASE_VERBS = new Set(
  (
    'take feel think get go need want like use try know see notice remember forget work walk run eat drink ' +
    'sleep smoke wake check exercise live wear play drive love hate mean guess believe hope wonder say tell ' +
    'call keep start stop lift bend sit stand cough sneeze vomit urinate come seem look swim bike hike cook ' +
    'watch own experience struggle deal lose gain miss wish prefer plan continue enjoy avoid follow monitor ' +
    'test measure tend spend travel carry push pull climb type write teach care help hear smell taste bleed ' +
    'wheeze ache fall snore pee poop chew swallow breathe limp rest ice elevate apply wrap stretch lay lie ' +
    'get understand agree recall find mind remember bother worry stay wonder move rub massage soak'
  ).split(' '),
);

/** Words before "you" that make it an object ("tell you", "for you") rather than a subject. */
const OBJECT_TRIGGERS = new Set(
  (
    'to for with at on in from about of by into onto than around give tell ask want need see send help let ' +
    'make get show put place start keep check examine prescribe refer bring call remind encourage advise ' +
    'recommend hear saw thank assure bother hurt treat told asked gave sent seen got have has had bothering ' +
    'do does did are is were was will would can could should like love met meet continue schedule order ' +
    'increase decrease switch move follow'
  ).split(' '),
);

/** Verbs after "you" that make it the subject whatever comes before it ("looks like you are …"). */
const SUBJECT_VERBS = new Set(
  'are were have had do did will would can could should may might must need want feel get got seem look'.split(' '),
);

function thirdPerson(verb: string): string {
  const low = verb.toLowerCase();
  if (low === 'have') return 'has';
  if (low === 'do') return 'does';
  if (low === 'go') return 'goes';
  if (/[^aeiou]y$/.test(low)) return `${low.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(low)) return `${low}es`;
  return `${low}s`;
}

/** Makes the verb after a new third-person subject agree; returns how many tokens it consumed. */
function agree(tokens: readonly string[], start: number, out: string[], singular: boolean): number {
  let index = start;
  while (ADVERBS.has((tokens[index] ?? '').toLowerCase()) && index < start + 2) {
    out.push(tokens[index] ?? '');
    index++;
  }
  const verb = (tokens[index] ?? '').toLowerCase();
  if (!singular) {
    if (verb === 'am') out.push('are');
    else if (verb === 'was') out.push('were');
    else return index - start;
    return index - start + 1;
  }
  if (verb === 'am' || verb === 'are') out.push('is');
  else if (verb === 'were') out.push('was');
  else if (BASE_VERBS.has(verb) || verb === 'have' || verb === 'do') out.push(thirdPerson(verb));
  else return index - start;
  return index - start + 1;
}

function capitalizeFirst(text: string): string {
  return text.replace(/^(["'(]*)(\p{Ll})/u, (_whole, lead: string, letter: string) => `${lead}${letter.toUpperCase()}`);
}

/** The patient's "we" is the patient and household: "they" in a note ("they had construction …"). */
const FAMILY_PLURAL: ReadonlyMap<string, string> = new Map([
  ['we', 'they'],
  ['us', 'them'],
  ['our', 'their'],
  ['ours', 'theirs'],
  ['ourselves', 'themselves'],
]);

/**
 * Rewrites the person of cleaned speech tokens. The patient's first person and the clinician's
 * second person both become the patient; other speakers (family, unknown) are left as said, since
 * who "I" is there cannot be known.
 */
export function toThirdPerson(tokens: readonly string[], speaker: Speaker, gender: Gender): string[] {
  if (speaker !== 'patient' && speaker !== 'clinician') return [...tokens];
  const out: string[] = [];
  let mentioned = false;
  const person = () => {
    const current = personFor(gender, mentioned);
    mentioned = true;
    return current;
  };
  const subject = (index: number) => {
    const current = person();
    out.push(current.subject);
    return agree(tokens, index + 1, out, current.singular);
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] ?? '';
    const low = token.toLowerCase();
    const previous = (tokens[index - 1] ?? '').toLowerCase();
    if (speaker === 'patient') {
      if (low === 'i') index += subject(index);
      else if (low === 'me') out.push(person().object);
      else if (low === 'my') out.push(person().possessive);
      else if (low === 'mine') out.push(person().pronoun);
      else if (low === 'myself') out.push(person().reflexive);
      else out.push(FAMILY_PLURAL.get(low) ?? token);
      continue;
    }
    // Clinician: "you" is the patient; the clinician's "I" is kept and capitalised later.
    if (low === 'you') {
      const next = (tokens[index + 1] ?? '').toLowerCase();
      if (OBJECT_TRIGGERS.has(previous) && isWord(previous) && !SUBJECT_VERBS.has(next)) out.push(person().object);
      else index += subject(index);
    } else if (low === 'your') out.push(person().possessive);
    else if (low === 'yours') out.push(person().pronoun);
    else if (low === 'yourself') out.push(person().reflexive);
    else if (low === "let's" || low === 'let’s') out.push('we', 'will');
    else out.push(token);
  }
  return out;
}

/** Final surface: digits, unit abbreviations, capital first letter and "I", a full stop. */
export function toNoteSentence(tokens: readonly string[]): string {
  const withNumbers = abbreviateUnits(digitize(tokens)).map((token) => (token === 'i' ? 'I' : token));
  while (withNumbers.length > 0 && !isWord(withNumbers.at(-1) ?? '')) withNumbers.pop();
  while (withNumbers.length > 0 && !isWord(withNumbers[0] ?? '')) withNumbers.shift();
  if (withNumbers.length === 0) return '';
  return `${capitalizeFirst(detokenize(withNumbers))}.`;
}
