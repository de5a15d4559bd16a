/**
 * A lexical faithfulness check: is every content word and every number of an output sentence
 * found in the source (the dialogue, plus any context the note was given)? It cannot prove a
 * sentence true — "denies chest pain" passes when the patient said "I have chest pain" — but it
 * catches what an extractive engine must never do: bring in a finding, dose, number or name that
 * nobody said. Content words are the sentence's [a-z]+ runs (from the same tokenizer as ROUGE,
 * then split at digits) minus English function words and a short list of note-style framing
 * words; numbers are the digit strings of the raw sentence ("2.5", "120/80" → 120 and 80).
 */
import { ONES, TENS } from '@chartwright/server/internal/text/number-words.js';

import { tokenize } from './rouge.js';

/** English function words: pronouns, articles, auxiliaries, prepositions, conjunctions, contraction pieces. */
const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being below
  between both but by can cannot could couldn d did didn do does doesn doing don down during each either else
  ever every few for from further had hadn has hasn have haven having he her here hers herself him himself his
  how however i if in into is isn it its itself just ll m ma me might mightn more most much must mustn my myself
  neither no nor not now o of off on once only or other our ours ourselves out over own per quite rather re s
  same shan she should shouldn so some such t than that the their theirs them themselves then there these they
  this those through thus to too under until up upon us ve very was wasn we were weren what when where whether
  which while who whom whose why will with within without won would wouldn y yet you your yours yourself
  yourselves`.split(/\s+/),
);

/**
 * Words a note uses to frame what was said, which assert nothing clinical by themselves: the
 * reporting verbs of third-person style ("the patient reports", "denies", "endorses") and titles.
 */
const FRAMING_WORDS: ReadonlySet<string> = new Set(
  `patient patients pt report reports reported reporting state states stated deny denies denied denying endorse
  endorses endorsed note notes noted describe describes described mention mentions mentioned complain complains
  complained present presents presented admit admits admitted indicate indicates indicated say says said
  mr mrs ms dr`.split(/\s+/),
);

const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  twentieth: 20,
  thirtieth: 30,
};

type NumberWord =
  | { kind: 'unit'; value: number }
  | { kind: 'teen'; value: number }
  | { kind: 'tens'; value: number }
  | { kind: 'hundred' | 'thousand' | 'point' | 'oh' | 'and' };

function numberWord(word: string): NumberWord | null {
  const small = ONES.indexOf(word);
  if (small >= 0) return { kind: small < 10 ? 'unit' : 'teen', value: small };
  const tens = TENS.indexOf(word === 'fourty' ? 'forty' : word);
  if (tens >= 2) return { kind: 'tens', value: tens * 10 };
  if (word === 'hundred' || word === 'thousand' || word === 'point' || word === 'oh' || word === 'and') {
    return { kind: word };
  }
  return null;
}

const ONE: NumberWord = { kind: 'unit', value: 1 };

/** The value of a number word on its own ("five" 5, "third" 3), or null. */
export function numberWordValue(word: string): number | null {
  const parsed = numberWord(word);
  if (parsed !== null && 'value' in parsed) return parsed.value;
  return ORDINALS[word] ?? null;
}

/** 0–99 from one or two words ("seven", "fourteen", "twenty", "twenty five"), with how many words it took. */
function belowHundred(words: readonly NumberWord[], at: number): { value: number; length: number } | null {
  const first = words[at];
  if (first === undefined) return null;
  if (first.kind === 'unit' || first.kind === 'teen') return { value: first.value, length: 1 };
  if (first.kind !== 'tens') return null;
  const second = words[at + 1];
  if (second?.kind === 'unit' && second.value > 0) return { value: first.value + second.value, length: 2 };
  return { value: first.value, length: 1 };
}

/**
 * The numbers a stretch of words states, read the way people say numbers in a visit: the longest
 * phrase wins where the grammar is clear ("twenty five" 25, "one hundred and ten" 110, "a hundred"
 * 100, "two thousand nineteen" 2019, "ninety eight point six" 98.6 and 98), while the colloquial
 * hundreds of blood pressures and years ("one twenty" 120, "one oh five" 105, "nineteen ninety
 * six" 1996) keep their plain reading too, since "one, twenty" is said the same way. Ordinals
 * count alone ("third" 3); any other word ends a number.
 */
export function spokenNumberValues(run: readonly string[]): Set<number> {
  const values = new Set<number>();
  let words: NumberWord[] = [];
  const readRun = (): void => {
    // Left to right, the longest phrase at each point: "two hundred" is 200, not also 2.
    let at = 0;
    while (at < words.length) {
      const phrases = phrasesFrom(words, at);
      const longest = phrases.reduce<Phrase | undefined>(
        (best, phrase) => (best === undefined || phrase.end > best.end ? phrase : best),
        undefined,
      );
      if (longest === undefined) {
        // "a hundred", "a thousand".
        const word = words[at];
        if (word?.kind === 'hundred') values.add(100);
        if (word?.kind === 'thousand') values.add(1000);
        at++;
        continue;
      }
      values.add(longest.value);
      // A decimal: the phrase, "point", then digit words.
      let decimalEnd = longest.end;
      if (words[longest.end]?.kind === 'point') {
        let digits = '';
        for (let next = longest.end + 1; words[next]?.kind === 'unit'; next++) {
          digits += String((words[next] as { value: number }).value);
          values.add(Number(`${longest.value}.${digits}`));
          decimalEnd = next + 1;
        }
      }
      // A colloquial reading is a guess ("one twenty" may be "one, twenty"): keep both readings.
      const head = phrases[0];
      if (longest.colloquial && head !== undefined) {
        values.add(head.value);
        at = head.end;
      } else {
        at = decimalEnd;
      }
    }
    words = [];
  };
  for (const [index, word] of run.entries()) {
    const next = run[index + 1];
    // "a hundred and forty", "a thousand".
    const parsed =
      (word === 'a' || word === 'an') && (next === 'hundred' || next === 'thousand') ? ONE : numberWord(word);
    if (parsed === null) {
      // Not a cardinal: it ends the run, and an ordinal counts on its own.
      readRun();
      const ordinal = ORDINALS[word];
      if (ordinal !== undefined) values.add(ordinal);
      continue;
    }
    words.push(parsed);
  }
  readRun();
  return values;
}

interface Phrase {
  value: number;
  /** The index just after the phrase. */
  end: number;
  /** Read as colloquial hundreds or a year ("one twenty", "nineteen ninety"). */
  colloquial: boolean;
}

/** The whole-number phrases that start at `start`, the first always the 0–99 one. */
function phrasesFrom(words: readonly NumberWord[], start: number): Phrase[] {
  const phrases: Phrase[] = [];
  const small = belowHundred(words, start);
  if (small === null) return phrases;
  const afterSmall = start + small.length;
  phrases.push({ value: small.value, end: afterSmall, colloquial: false });

  // Colloquial hundreds, a unit then 10–99 ("one twenty five") or "oh" and a unit ("one oh five"),
  // and years, 10–99 then 10–99 ("nineteen ninety six", "twenty twenty").
  const next = words[afterSmall];
  const ohUnit = next?.kind === 'oh' ? words[afterSmall + 1] : undefined;
  if ((small.length === 1 && small.value > 0 && small.value < 10) || small.value >= 10) {
    if (ohUnit?.kind === 'unit') {
      phrases.push({ value: small.value * 100 + ohUnit.value, end: afterSmall + 2, colloquial: true });
    } else if (next?.kind === 'teen' || next?.kind === 'tens') {
      const tail = belowHundred(words, afterSmall);
      if (tail !== null) {
        phrases.push({ value: small.value * 100 + tail.value, end: afterSmall + tail.length, colloquial: true });
      }
    }
  }

  // Standard: "<n> hundred [and] [<m>]", "<n> thousand [<m> hundred] [and] [<k>]".
  let total = small.value;
  let end = afterSmall;
  for (;;) {
    const scale = words[end];
    if (scale?.kind !== 'hundred' && scale?.kind !== 'thousand') break;
    total *= scale.kind === 'hundred' ? 100 : 1000;
    end++;
    phrases.push({ value: total, end, colloquial: false });
    const tailStart = words[end]?.kind === 'and' ? end + 1 : end;
    const tail = belowHundred(words, tailStart);
    if (tail === null) break;
    if (scale.kind === 'thousand' && words[tailStart + tail.length]?.kind === 'hundred') {
      // "two thousand one hundred [and] [ten]": the hundreds, then the loop reads the rest.
      total += tail.value * 100;
      end = tailStart + tail.length + 1;
      phrases.push({ value: total, end, colloquial: false });
      const restStart = words[end]?.kind === 'and' ? end + 1 : end;
      const rest = belowHundred(words, restStart);
      if (rest !== null) phrases.push({ value: total + rest.value, end: restStart + rest.length, colloquial: false });
      break;
    }
    total += tail.value;
    end = tailStart + tail.length;
    phrases.push({ value: total, end, colloquial: false });
  }
  return phrases;
}

/** Digit strings in raw text as canonical numbers: "2.5" → 2.5, "1,000" → 1000, "05" → 5, "120/80" → 120, 80. */
export function digitNumbers(text: string): number[] {
  const numbers: number[] = [];
  for (const match of text.matchAll(/\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?/g)) {
    numbers.push(Number(match[0].replace(/,/g, '')));
  }
  return numbers;
}

/**
 * A light normalization so inflections match ("swelling"/"swell", "feels"/"feel",
 * "smoked"/"smoking"/"smoke"): plural or third-person s, then -ing or -ed, then a final e.
 */
export function lightStem(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith('ies')) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 3 && stem.endsWith('s') && !stem.endsWith('ss') && !stem.endsWith('us')) {
    stem = stem.slice(0, -1);
  }
  if (stem.length > 5 && stem.endsWith('ing')) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('ed')) stem = stem.slice(0, -2);
  if (stem.length > 4 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

/** The words of a text the check compares: ROUGE tokens split into letter runs and digit runs. */
function wordPieces(text: string): string[] {
  return tokenize(text).flatMap((token) => token.match(/[a-z]+|[0-9]+/g) ?? []);
}

/** What the source offers: its words (light-stemmed) and the numbers it states in digits or words. */
export interface SupportSource {
  readonly stems: ReadonlySet<string>;
  readonly numbers: ReadonlySet<number>;
}

export function supportSource(texts: readonly string[]): SupportSource {
  const stems = new Set<string>();
  const numbers = new Set<number>();
  for (const text of texts) {
    for (const number of digitNumbers(text)) numbers.add(number);
    const pieces = wordPieces(text);
    for (const piece of pieces) stems.add(lightStem(piece));
    for (const [index, piece] of pieces.entries()) {
      const spoken = SPOKEN_FORMS[piece] ?? SPOKEN_FORMS[`${piece} ${pieces[index + 1] ?? ''}`];
      if (spoken !== undefined) stems.add(lightStem(spoken));
    }
    // Numbers read across the whole text, and within each stretch between punctuation marks, since
    // a comma in a transcript may or may not split a number ("three hundred, twenty five").
    for (const number of spokenNumberValues(pieces)) numbers.add(number);
    for (const stretch of text.split(/[,;:.!?()]+/)) {
      for (const number of spokenNumberValues(wordPieces(stretch))) numbers.add(number);
    }
  }
  return { stems, numbers };
}

/** Spoken contractions as transcripts write them, and the words a note writes for them. */
const SPOKEN_FORMS: Readonly<Record<string, string>> = {
  gonna: 'going',
  'gon na': 'going',
  wanna: 'want',
  'wan na': 'want',
  gotta: 'got',
  'got ta': 'got',
  kinda: 'kind',
  sorta: 'sort',
  lemme: 'let',
  gimme: 'give',
  dunno: 'know',
  ya: 'you',
  yeah: 'yes',
  yep: 'yes',
  yup: 'yes',
  nope: 'no',
  cause: 'because',
  cuz: 'because',
};

/** Unit abbreviations and their spelled-out forms: either one in the source supports the other. */
const UNIT_SPELLINGS: readonly (readonly string[])[] = [
  ['mg', 'milligram', 'milligrams'],
  ['mcg', 'microgram', 'micrograms'],
  ['ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres', 'cc', 'ccs'],
  ['kg', 'kilogram', 'kilograms', 'kilo', 'kilos'],
  ['lb', 'lbs', 'pound', 'pounds'],
  ['cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres'],
  ['mm', 'millimeter', 'millimeters', 'millimetre', 'millimetres'],
  ['hr', 'hrs', 'hour', 'hours'],
  ['min', 'mins', 'minute', 'minutes'],
];

function supportedWord(word: string, source: SupportSource): boolean {
  if (source.stems.has(lightStem(word))) return true;
  const spellings = UNIT_SPELLINGS.find((forms) => forms.includes(word));
  return spellings?.some((form) => source.stems.has(lightStem(form))) ?? false;
}

export interface SupportCheck {
  supported: boolean;
  /** Content words of the sentence not found in the source. */
  missingWords: string[];
  /** Numbers of the sentence not found in the source. */
  missingNumbers: number[];
}

/** Checks one output sentence against the source. A sentence with no content word or number passes. */
export function checkSentence(sentence: string, source: SupportSource): SupportCheck {
  const missingWords: string[] = [];
  for (const piece of wordPieces(sentence)) {
    if (!/^[a-z]+$/.test(piece) || STOPWORDS.has(piece) || FRAMING_WORDS.has(piece)) continue;
    if (supportedWord(piece, source)) continue;
    // A number written out in the note ("five weeks") is supported by the same number in digits.
    const value = numberWordValue(piece);
    if (value !== null && source.numbers.has(value)) continue;
    if (!missingWords.includes(piece)) missingWords.push(piece);
  }
  const missingNumbers = [...new Set(digitNumbers(sentence))].filter((number) => !source.numbers.has(number));
  return { supported: missingWords.length === 0 && missingNumbers.length === 0, missingWords, missingNumbers };
}
