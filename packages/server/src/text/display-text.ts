/**
 * A transcript segment as a clinician reads it: the recognizer's words (lower case, no
 * punctuation) in sentences ended where the punctuation model says they most probably ended, each
 * in sentence case with terminal punctuation — a question mark for a question —,
 * numbers and units in chart form ("ten milligrams" → "10 mg", "one twenty over eighty" →
 * "120/80"), clinical abbreviations cased as charts write them (eGFR, HbA1c, COVID-19, MRI) and
 * "I" capitalised. Pure and deterministic: the same text always reads the same, so nothing of it
 * needs storing. Text that already carries punctuation and case (an OpenAI-compatible engine's)
 * keeps them.
 *
 * Each display token says which words of the text it came from, so a reader can mark, inside the
 * display, the words the recognizer was unsure of.
 */
import type { ConversationSentence } from './conversation.js';
import { sentenceEnds } from './punctuation/sentence-ends.js';
import { splitSentences } from './sentences.js';
import { numberSpans, UNIT_ABBREVIATIONS } from './spoken-numbers.js';

/** A token of the display and the words of the text (split at whitespace) it came from: `wordStart` up to, not including, `wordEnd`. */
export interface DisplayToken {
  text: string;
  wordStart: number;
  wordEnd: number;
}

export interface DisplayText {
  /** The tokens joined with single spaces. */
  display: string;
  tokens: DisplayToken[];
}

/** A word of the text: its letters and digits, and the punctuation around them. */
interface SourceWord {
  lead: string;
  core: string;
  trail: string;
}

/** Display tokens in the making; `fixed` ones (clinical terms) are not read as numbers. */
interface Unit {
  text: string;
  from: number;
  to: number;
  fixed: boolean;
}

/** Clinical terms said as words or letters, and how a chart writes them. Longest match wins. */
const TERMS: readonly (readonly [string, string])[] = [
  ['h b a one c', 'HbA1c'],
  ['h b a1c', 'HbA1c'],
  ['hba1c', 'HbA1c'],
  ['a one c', 'A1c'],
  ['a1c', 'A1c'],
  ['e g f r', 'eGFR'],
  ['egfr', 'eGFR'],
  ['g f r', 'GFR'],
  ['covid nineteen', 'COVID-19'],
  ['covid 19', 'COVID-19'],
  ['covid-19', 'COVID-19'],
  ['covid', 'COVID'],
  ['x ray', 'X-ray'],
  ['x rays', 'X-rays'],
  ['x-ray', 'X-ray'],
  ['x-rays', 'X-rays'],
  ['b twelve', 'B12'],
  ['b12', 'B12'],
  ['vitamin d', 'vitamin D'],
  ['m r i', 'MRI'],
  ['i v', 'IV'],
  ['a fib', 'AFib'],
  ['afib', 'AFib'],
  // Said letter by letter, these are the units, not acronyms.
  ['m g', 'mg'],
  ['m l', 'mL'],
];

/** Abbreviations said as one word ("ekg"), written in capitals; their plurals keep a small s. */
const ACRONYMS: ReadonlySet<string> = new Set(
  (
    'mri ct ekg ecg eeg bmi copd chf ckd dvt uti gerd adhd hiv icu iv bp cbc cmp tsh ldl hdl psa inr ' +
    'nsaid ssri ppi cpap mrsa ptsd ibs ent ob mcl acl pcl lcl cva gi otc egd uri pft bmp tia hpv sti rsv'
  ).split(' '),
);

/** Names a chart capitalises. May and March are left out: they are words too. */
const PROPER = new Map(
  'monday tuesday wednesday thursday friday saturday sunday january february april june july august september october november december tylenol advil motrin'
    .split(' ')
    .map((word) => [word, word.charAt(0).toUpperCase() + word.slice(1)]),
);

/**
 * Words that open a sentence without deciding what it is ("so, how are you?"), among them the
 * acknowledgements a clinician runs into the next question when nothing marks the end between them
 * ("interesting, do you remember any heartburn?", "all right, is it worse at night?").
 */
const OPENERS: ReadonlySet<string> = new Set(
  'so and but okay ok alright right well now oh also yeah yes great good perfect interesting awesome sure'.split(' '),
);
const WH_WORDS: ReadonlySet<string> = new Set(['what', 'when', 'where', 'why', 'who', 'whom', 'whose', 'which', 'how']);
const WH_CONTRACTIONS: ReadonlySet<string> = new Set(["what's", "how's", "where's", "who's", "when's", "why's"]);
const AUXILIARIES: ReadonlySet<string> = new Set(
  (
    "do does did are is was were have has had can could will would should may might am don't doesn't didn't " +
    "aren't isn't wasn't weren't haven't hasn't can't won't wouldn't couldn't shouldn't"
  ).split(' '),
);
/** Subjects of an inverted question ("do you", "is it", "have the results"). */
const SUBJECTS: ReadonlySet<string> = new Set(
  'you i it he she we they there that this your my his her their the anyone anybody anything someone everything any'.split(
    ' ',
  ),
);
const PRONOUNS: ReadonlySet<string> = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it']);
/** "Any fever?", "Anybody in the family with kidney failure?": asking whether there is any. */
const ANY_WORDS: ReadonlySet<string> = new Set(['any', 'anything', 'anybody', 'anyone']);
/** "Anyone can get it": a statement about anybody, not a question. */
const MODALS: ReadonlySet<string> = new Set(['can', 'could', 'will', 'would', 'should', 'may', 'might', 'must']);

/** A wh-word before a subject opens a clause, not a question: "when I bend", "what we're gonna do is …". */
function opensClause(word: string): boolean {
  const [subject = '', contracted] = word.split("'");
  return PRONOUNS.has(subject) || (contracted !== undefined && (subject === 'that' || subject === 'there'));
}

const LEAD = /^[^\p{L}\p{N}]+/u;
const TRAIL = /[^\p{L}\p{N}%+]+$/u;

function sourceWord(word: string): SourceWord {
  const lead = LEAD.exec(word)?.[0] ?? '';
  const rest = word.slice(lead.length);
  const trail = TRAIL.exec(rest)?.[0] ?? '';
  return { lead, core: rest.slice(0, rest.length - trail.length), trail };
}

/** Whether the words ask something: a wh-word that is not a clause's ("when I bend"), an inverted auxiliary, or "any …". */
export function isQuestion(words: readonly string[]): boolean {
  let start = 0;
  for (;;) {
    if (start < words.length - 2 && words[start] === 'all' && words[start + 1] === 'right') start += 2;
    else if (start < words.length - 1 && OPENERS.has(words[start] ?? '')) start++;
    else break;
  }
  const first = words[start] ?? '';
  const second = words[start + 1] ?? '';
  if (WH_CONTRACTIONS.has(first)) return true;
  if (WH_WORDS.has(first)) return second !== '' && !opensClause(second);
  if (AUXILIARIES.has(first)) return SUBJECTS.has(second);
  return ANY_WORDS.has(first) && !MODALS.has(second);
}

/** The terms by their first word: a word is checked against the few terms it can open, not all of them. */
const TERMS_BY_FIRST_WORD = new Map<string, { parts: string[]; written: string }[]>();
for (const [said, written] of TERMS) {
  const parts = said.split(' ');
  const first = parts[0] ?? '';
  TERMS_BY_FIRST_WORD.set(first, [...(TERMS_BY_FIRST_WORD.get(first) ?? []), { parts, written }]);
}

/** The clinical term starting at word `at`, and how many words it takes. */
function termAt(words: readonly SourceWord[], at: number): { text: string; length: number } | undefined {
  let best: { text: string; length: number } | undefined;
  for (const { parts, written } of TERMS_BY_FIRST_WORD.get(words[at]?.core.toLowerCase() ?? '') ?? []) {
    const matches = parts.every((part, offset) => words[at + offset]?.core.toLowerCase() === part);
    if (matches && parts.length > (best?.length ?? 0)) best = { text: written, length: parts.length };
  }
  if (best !== undefined) return best;
  const word = words[at]?.core.toLowerCase() ?? '';
  if (ACRONYMS.has(word)) return { text: word.toUpperCase(), length: 1 };
  if (word.endsWith('s') && ACRONYMS.has(word.slice(0, -1)))
    return { text: `${word.slice(0, -1).toUpperCase()}s`, length: 1 };
  return letterRun(words, at);
}

/** Letters said one by one ("e k g", "c t"): an abbreviation in capitals. "a" and "i" are words, so they never start one. */
function letterRun(words: readonly SourceWord[], at: number): { text: string; length: number } | undefined {
  let end = at;
  while (/^[b-hj-z]$/i.test(words[end]?.core ?? '') && (end === at || words[end - 1]?.trail === '')) end++;
  if (end - at < 2) return undefined;
  return {
    text: words
      .slice(at, end)
      .map((word) => word.core.toUpperCase())
      .join(''),
    length: end - at,
  };
}

/** The words as units: clinical terms first (so "a one c" is not read as a number), then numbers in the rest. */
function unitsOf(words: readonly SourceWord[]): Unit[] {
  const units: Unit[] = [];
  let run: number[] = [];
  const flushRun = () => {
    if (run.length === 0) return;
    const first = run[0] ?? 0;
    for (const span of numberSpans(run.map((index) => words[index]?.core ?? ''))) {
      units.push({ text: span.text, from: first + span.from, to: first + span.to, fixed: false });
    }
    run = [];
  };
  let index = 0;
  while (index < words.length) {
    const word = words[index];
    const term = word === undefined || word.core === '' ? undefined : termAt(words, index);
    if (word === undefined || word.core === '' || term !== undefined) {
      flushRun();
      const length = term?.length ?? 1;
      units.push({ text: term?.text ?? word?.core ?? '', from: index, to: index + length, fixed: true });
      index += length;
    } else {
      // A run of numbers stops at punctuation: "five, ten" is two numbers.
      run.push(index);
      if (word.trail !== '') flushRun();
      index++;
    }
  }
  flushRun();
  return units;
}

/** Word-level case and units: "I", names, and a spoken unit after a number abbreviated. */
function casedText(unit: Unit, previous: Unit | undefined): string {
  if (unit.fixed) return unit.text;
  const lower = unit.text.toLowerCase();
  const abbreviation = UNIT_ABBREVIATIONS[lower];
  if (abbreviation !== undefined && /\d$/.test(previous?.text ?? '')) return abbreviation;
  if (lower === 'i' || lower.startsWith("i'")) return `I${unit.text.slice(1)}`;
  return PROPER.get(lower) ?? unit.text;
}

/** Clinical terms a chart writes in their own case, said as one word: "a1c", "x-ray", "b12". */
const ONE_WORD_TERMS = new Map(TERMS.filter(([said]) => !said.includes(' ')));

/**
 * Written text (a note sentence) with clinical abbreviations, terms and names cased as a chart
 * writes them: "get an mri and a cbc" → "get an MRI and a CBC". Words already cased stay as they are.
 */
export function chartCasing(text: string): string {
  return text
    .replace(/(?<![\p{L}\p{N}'-])[\p{Ll}\p{N}][\p{Ll}\p{N}-]*(?![\p{L}\p{N}'])/gu, (word) => {
      const term = ONE_WORD_TERMS.get(word);
      if (term !== undefined) return term;
      if (ACRONYMS.has(word)) return word.toUpperCase();
      if (word.endsWith('s') && ACRONYMS.has(word.slice(0, -1))) return `${word.slice(0, -1).toUpperCase()}s`;
      return PROPER.get(word) ?? word;
    })
    .replace(
      /\b([Vv]itamin) ([a-ek])\b/g,
      (_whole, vitamin: string, letter: string) => `${vitamin} ${letter.toUpperCase()}`,
    );
}

/**
 * The display text of a segment's `text`, and its tokens with the words each came from. Recognizer
 * text (no punctuation) gets its sentence ends from the punctuation model.
 */
export function displayText(text: string): DisplayText {
  const words = text
    .split(/\s+/)
    .filter((word) => word !== '')
    .map(sourceWord);
  const units = unitsOf(words);
  const tokens = units.map((unit, index): DisplayToken => {
    const first = words[unit.from];
    const last = words[unit.to - 1];
    return {
      text: `${first?.lead ?? ''}${casedText(unit, units[index - 1])}${last?.trail ?? ''}`,
      wordStart: unit.from,
      wordEnd: unit.to,
    };
  });
  const said = words.map((word) => word.core.toLowerCase());
  const punctuated = words.some((word) => /[.?!,;:]/.test(word.trail));
  const { ends, last } = punctuated ? { ends: [], last: null } : sentenceEnds(said);
  let sentenceStart = 0;
  for (const [index, token] of tokens.entries()) {
    if (token.wordStart === sentenceStart && units[index]?.fixed !== true) token.text = capitalised(token.text);
    const end = token.wordEnd - 1;
    const mark = index === tokens.length - 1 ? last : ends[end];
    if (mark === undefined || mark === null || /[.?!…]$/.test(token.text)) continue;
    const question = isQuestion(said.slice(sentenceStart, end + 1));
    token.text = `${token.text.replace(/[,;:\-–—]+$/, '')}${question ? '?' : '.'}`;
    sentenceStart = end + 1;
  }
  const closing = tokens.at(-1);
  if (closing !== undefined && !/[.?!…]$/.test(closing.text)) {
    const question = isQuestion(said.slice(sentenceStart));
    closing.text = `${closing.text.replace(/[,;:\-–—]+$/, '')}${question ? '?' : '.'}`;
  }
  return { display: tokens.map((token) => token.text).join(' '), tokens };
}

const capitalised = (text: string): string =>
  text.replace(/^(\P{L}*)(\p{Ll})/u, (_whole, lead: string, letter: string) => lead + letter.toUpperCase());

/** Whether the text carries its own sentence ends (typed, or a recognizer that punctuates). */
export const hasSentenceMarks = (text: string): boolean => /[.?!]/.test(text);

/**
 * Text as a note's parser reads it: typed or recognised text without sentence marks (a
 * recognizer's words, a transcript typed without them) in its display form, so its sentences end
 * where they most probably did; punctuated text as it is. Whitespace collapsed either way.
 */
export function readableText(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed === '' || hasSentenceMarks(collapsed) ? collapsed : displayText(collapsed).display;
}

/** The readable text's sentences, each flagged when its closing mark was inferred rather than given. */
export function readableSentences(text: string): Omit<ConversationSentence, 'index'>[] {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed === '' || hasSentenceMarks(collapsed))
    return splitSentences(collapsed).map((sentence) => ({ text: sentence }));
  return splitSentences(displayText(collapsed).display).map((sentence) => ({
    text: sentence,
    markInferred: true,
  }));
}
