/**
 * Numbers as American English speakers say them, in the recognizer's words (lower case, no
 * hyphens): "one hundred twenty three", "twenty nineteen", "fifteenth", "zero point seven".
 */

/** The cardinal words for 0–19, each at its own value's index. */
export const ONES: readonly string[] = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
/** The words for the multiples of ten from 20, each at its tens digit's index. */
export const TENS: readonly string[] = [
  '',
  '',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
];
const SCALES: [number, string][] = [
  [1e9, 'billion'],
  [1e6, 'million'],
  [1e3, 'thousand'],
];

function belowHundred(n: number): string[] {
  if (n < 20) return [ONES[n] ?? ''];
  const tens = TENS[Math.floor(n / 10)] ?? '';
  return n % 10 === 0 ? [tens] : [tens, ONES[n % 10] ?? ''];
}

function belowThousand(n: number): string[] {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [...(hundreds > 0 ? [ONES[hundreds] ?? '', 'hundred'] : []), ...(rest > 0 ? belowHundred(rest) : [])];
}

/** A whole number 0 ≤ n < 10^12 in words; longer digit strings (record numbers) digit by digit. */
export function cardinal(n: number): string[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a whole number: ${n}`);
  if (n >= 1e12) return digits(String(n));
  if (n === 0) return ['zero'];
  const words: string[] = [];
  let rest = n;
  for (const [scale, name] of SCALES) {
    if (rest >= scale) {
      words.push(...belowThousand(Math.floor(rest / scale)), name);
      rest %= scale;
    }
  }
  if (rest > 0) words.push(...belowThousand(rest));
  return words;
}

/** Each digit on its own ("four seven two"), as identifiers and decimals are read. */
export function digits(text: string): string[] {
  return Array.from(text.matchAll(/\d/g), ([digit]) => ONES[Number(digit)] ?? '');
}

const IRREGULAR_ORDINALS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

function ordinalOf(word: string): string {
  const irregular = IRREGULAR_ORDINALS[word];
  if (irregular !== undefined) return irregular;
  if (word.endsWith('y')) return `${word.slice(0, -1)}ieth`;
  return `${word}th`;
}

export function ordinal(n: number): string[] {
  const words = cardinal(n);
  const last = words.pop() ?? '';
  return [...words, ordinalOf(last)];
}

/** "1990s", "300's": the last word made plural ("nineteen nineties", "three hundreds"). */
export function pluralNumber(words: readonly string[]): string[] {
  const last = words[words.length - 1] ?? '';
  const plural = last.endsWith('y') ? `${last.slice(0, -1)}ies` : last.endsWith('x') ? `${last}es` : `${last}s`;
  return [...words.slice(0, -1), plural];
}

/** A year: "nineteen eighty two", "two thousand nine", "twenty nineteen", "nineteen oh five". */
export function year(n: number): string[] {
  if (n < 1100 || n > 2099 || (n >= 2000 && n < 2010)) return cardinal(n);
  const century = Math.floor(n / 100);
  const rest = n % 100;
  if (rest === 0) return [...belowHundred(century), 'hundred'];
  return [...belowHundred(century), ...(rest < 10 ? ['oh', ONES[rest] ?? ''] : belowHundred(rest))];
}

/** "0.7" → zero point seven, ".5" → point five, "12.25" → twelve point two five. */
export function decimal(text: string): string[] {
  const [whole = '', fraction = ''] = text.split('.');
  return [...(whole === '' ? [] : cardinal(Number(whole))), 'point', ...digits(fraction)];
}

/** The months, in order, as said. */
export const MONTHS: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
