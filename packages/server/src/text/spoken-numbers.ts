/**
 * Spoken numbers → digits, the way notes write them ("four days" → "4 days", "five hundred
 * milligrams" → "500 mg", "one thirty two over eighty" → "132/80", "three out of six" → "3/6").
 * Only where it is safe: a lone "one" stays a word unless a unit or a time word follows it, since
 * "the one I take" or "no one" are not quantities.
 */

import { MONTHS, ONES, TENS as TEN_WORDS } from './number-words.js';

const UNITS: Readonly<Record<string, number>> = Object.fromEntries(ONES.map((word, value) => [word, value]));
const TENS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(TEN_WORDS.flatMap((word, digit) => (word === '' ? [] : [[word, digit * 10]]))),
  // Typed transcripts spell it so often that it reads as the number.
  fourty: 40,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000 };

/** Words after which a lone "one" (or "a") is a quantity. */
const COUNTED = new Set([
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'year',
  'years',
  'hour',
  'hours',
  'minute',
  'minutes',
  'second',
  'seconds',
  'time',
  'times',
  'tablet',
  'tablets',
  'pill',
  'pills',
  'capsule',
  'capsules',
  'dose',
  'doses',
  'mg',
  'milligram',
  'milligrams',
  'unit',
  'units',
  'puff',
  'puffs',
  'drink',
  'drinks',
  'pack',
  'packs',
  'cup',
  'cups',
  'glass',
  'glasses',
  'pound',
  'pounds',
  'percent',
  'plus',
  'out',
  'point',
  'centimeter',
  'centimeters',
  'inch',
  'inches',
  'mile',
  'miles',
  'episode',
  'episodes',
  'child',
  'children',
  'kid',
  'kids',
  'beer',
  'beers',
  'cigarette',
  'cigarettes',
]);

/** Words that show the number is a reading (pressure, sugar, weight), so "one forty" is 140. */
const READING_CUES = new Set([
  'pressure',
  'pressures',
  'sugar',
  'sugars',
  'glucose',
  'weight',
  'pounds',
  'number',
  'numbers',
  'reading',
  'readings',
  'a1c',
  'cholesterol',
  'rate',
  'pulse',
  'over',
  'running',
  'ldl',
  'hdl',
  'triglycerides',
  'level',
  'levels',
  'systolic',
  'diastolic',
  'oxygen',
  'saturation',
]);

function isNumberWord(word: string): boolean {
  return word in UNITS || word in TENS || word in SCALES;
}

interface Parsed {
  value: number;
  /** How many words the number took. */
  length: number;
}

/** The longest spoken cardinal at `start`: "five hundred and twenty five" → 525. */
function parseCardinal(words: readonly string[], start: number): Parsed | null {
  let total = 0;
  let current = 0;
  let index = start;
  let seen = false;
  let lastKind: 'unit' | 'tens' | 'scale' | null = null;
  while (index < words.length) {
    const word = words[index] ?? '';
    if (word in UNITS && lastKind !== 'unit' && !(lastKind === 'tens' && (UNITS[word] ?? 0) >= 10)) {
      current += UNITS[word] ?? 0;
      lastKind = 'unit';
    } else if (word in TENS && lastKind !== 'unit' && lastKind !== 'tens') {
      current += TENS[word] ?? 0;
      lastKind = 'tens';
    } else if (word in SCALES && seen && lastKind !== 'scale') {
      const scale = SCALES[word] ?? 1;
      if (scale === 1000) {
        total += (current === 0 ? 1 : current) * 1000;
        current = 0;
      } else current = (current === 0 ? 1 : current) * 100;
      lastKind = 'scale';
    } else if (word === 'and' && lastKind === 'scale' && isNumberWord(words[index + 1] ?? '')) {
      index++;
      continue;
    } else break;
    seen = true;
    index++;
  }
  if (!seen) return null;
  return { value: total + current, length: index - start };
}

/** A token of `numberSpans`' output and the input tokens it came from: `from` up to, not including, `to`. */
export interface NumberSpan {
  text: string;
  from: number;
  to: number;
}

/**
 * Converts spoken numbers in a list of lower-case word tokens (punctuation as separate tokens),
 * saying which input tokens each output token came from ("one twenty over eighty" → one token,
 * "120/80", from tokens 0 to 4). Tokens that are not numbers pass through untouched, one each.
 */
export function numberSpans(original: readonly string[]): NumberSpan[] {
  // Matching is on lower case; words that are not numbers keep their case.
  const tokens = original.map((token) => token.toLowerCase());
  const out: NumberSpan[] = [];
  const keep = (index: number) => out.push({ text: original[index] ?? '', from: index, to: index + 1 });
  let index = 0;
  while (index < tokens.length) {
    const word = tokens[index] ?? '';
    // "a hundred", "a thousand": the article is the number one.
    const article = word === 'a' && (tokens[index + 1] ?? '') in SCALES;
    const start = article ? index + 1 : index;
    if (!isNumberWord(tokens[start] ?? '')) {
      keep(index++);
      continue;
    }
    const year = article ? null : spokenYear(tokens, start);
    if (year !== null) {
      out.push({ text: String(year.value), from: index, to: index + year.length });
      index += year.length;
      continue;
    }
    const parsed = article ? parseCardinal(['one', ...tokens.slice(start)], 0) : parseCardinal(tokens, start);
    if (parsed === null) {
      keep(index++);
      continue;
    }
    let value = parsed.value;
    let next = start + parsed.length - (article ? 1 : 0);
    // "one thirty two" / "one forty" in a reading: hundreds said as a digit then the rest.
    const unitOnly = parsed.length === 1 && !article && value >= 1 && value <= 2;
    if (unitOnly && isNumberWord(tokens[next] ?? '') && readingContext(tokens, index, next)) {
      const rest = parseCardinal(tokens, next);
      if (rest !== null && rest.value >= 10 && rest.value < 100) {
        value = value * 100 + rest.value;
        next += rest.length;
      }
    }
    const decimals = decimalsAt(tokens, next);
    const text = decimals === null ? String(value) : `${value}.${decimals.digits}`;
    next += decimals?.length ?? 0;
    const consumed = next - index;
    // A lone "one" is a pronoun more often than a quantity.
    if (consumed === 1 && word === 'one' && !COUNTED.has(tokens[next] ?? '')) {
      keep(index++);
      continue;
    }
    out.push({ text, from: index, to: next });
    index = next;
  }
  return joinNumberPhrases(out);
}

/**
 * Converts spoken numbers in a list of lower-case word tokens (punctuation as separate tokens).
 * Returns new tokens; tokens that are not numbers pass through untouched.
 */
export function digitize(original: readonly string[]): string[] {
  return numberSpans(original).map((span) => span.text);
}

/** The digits after a decimal point said at `start` ("point six", "point zero five"), or null. */
function decimalsAt(tokens: readonly string[], start: number): { digits: string; length: number } | null {
  const digitAt = (index: number) => {
    const value = UNITS[tokens[index] ?? ''];
    return value !== undefined && value < 10 ? String(value) : null;
  };
  if (tokens[start] !== 'point' || digitAt(start + 1) === null) return null;
  let digits = '';
  let cursor = start + 1;
  for (let digit = digitAt(cursor); digit !== null; digit = digitAt(++cursor)) digits += digit;
  return { digits, length: cursor - start };
}

/** Words before which "twenty eighteen" is a year: "in", "since", a month. */
const YEAR_CUES: ReadonlySet<string> = new Set(['in', 'since', 'from', 'until', 'till', 'of', 'year', ...MONTHS]);

/**
 * A year said in two halves after a cue ("in twenty eighteen" → 2018, "since nineteen ninety
 * nine" → 1999): the century, then a number from 10 to 99 that does not start with a lone digit.
 */
function spokenYear(tokens: readonly string[], start: number): Parsed | null {
  const century = tokens[start] === 'twenty' ? 20 : tokens[start] === 'nineteen' ? 19 : null;
  if (century === null || !YEAR_CUES.has(tokens[start - 1] ?? '')) return null;
  if ((UNITS[tokens[start + 1] ?? ''] ?? 10) < 10) return null;
  const rest = parseCardinal(tokens, start + 1);
  if (rest === null || rest.value < 10 || rest.value > 99) return null;
  // "in twenty thirty minutes" counts minutes.
  if (COUNTED.has(tokens[start + 1 + rest.length] ?? '')) return null;
  return { value: century * 100 + rest.value, length: rest.length + 1 };
}

function readingContext(tokens: readonly string[], start: number, end: number): boolean {
  for (let cursor = Math.max(0, start - 6); cursor < Math.min(tokens.length, end + 6); cursor++) {
    if (READING_CUES.has(tokens[cursor] ?? '')) return true;
  }
  return false;
}

const isDigits = (token: string | undefined) => token !== undefined && /^\d+(?:\.\d+)?$/.test(token);

/** "120 over 80" → "120/80", "3 out of 6" → "3/6", "1 plus" → "1+", "45 percent" → "45%". */
function joinNumberPhrases(spans: readonly NumberSpan[]): NumberSpan[] {
  const out: NumberSpan[] = [];
  const textAt = (index: number) => spans[index]?.text;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index];
    if (span === undefined) continue;
    const token = span.text.toLowerCase();
    const previous = out.at(-1);
    const joined = (text: string, last: number) => {
      out[out.length - 1] = { text, from: previous?.from ?? span.from, to: spans[last]?.to ?? span.to };
    };
    if (token === 'over' && isDigits(previous?.text) && isDigits(textAt(index + 1))) {
      joined(`${previous?.text ?? ''}/${textAt(index + 1) ?? ''}`, index + 1);
      index++;
    } else if (
      token === 'out' &&
      textAt(index + 1) === 'of' &&
      isDigits(previous?.text) &&
      isDigits(textAt(index + 2))
    ) {
      joined(`${previous?.text ?? ''}/${textAt(index + 2) ?? ''}`, index + 2);
      index += 2;
    } else if (token === 'plus' && /^\d$/.test(previous?.text ?? '')) {
      joined(`${previous?.text ?? ''}+`, index);
    } else if ((token === 'percent' || token === '%') && isDigits(previous?.text)) {
      joined(`${previous?.text ?? ''}%`, index);
    } else out.push(span);
  }
  return out;
}

/** Spoken numbers of a text as digit strings, for checking that an output number was said. */
export function numbersIn(tokens: readonly string[]): string[] {
  return digitize(tokens).flatMap((token) => token.match(/\d+(?:\.\d+)?/g) ?? []);
}

/** Spoken units and the abbreviations notes write. */
export const UNIT_ABBREVIATIONS: Readonly<Record<string, string>> = {
  milligram: 'mg',
  milligrams: 'mg',
  microgram: 'mcg',
  micrograms: 'mcg',
  milliliter: 'mL',
  milliliters: 'mL',
  kilogram: 'kg',
  kilograms: 'kg',
};

/** Spoken units after a number become the abbreviations notes use ("20 milligrams" → "20 mg"). */
export function abbreviateUnits(tokens: readonly string[]): string[] {
  return tokens.map((token, index) => {
    const unit = UNIT_ABBREVIATIONS[token.toLowerCase()];
    return unit !== undefined && /\d$/.test(tokens[index - 1] ?? '') ? unit : token;
  });
}
