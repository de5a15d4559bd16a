/**
 * Clinical text in spoken form, the way the recognizer writes what it hears: lower-case dictionary
 * words, no punctuation, numbers, units, dates, times and percentages as words ("58-year-old" →
 * "fifty eight year old", "10 mg" → "ten milligrams", "4/24/2021" → "april twenty fourth twenty
 * twenty one"). Used to build the clinical language model and to turn reference dialogue into the
 * words a perfect recognizer would output when measuring word error rate.
 */
import { isFilledPause } from '@chartwright/server/internal/asr/filled-pauses.js';
import {
  cardinal,
  decimal,
  digits,
  MONTHS,
  ordinal,
  pluralNumber,
  year,
} from '@chartwright/server/internal/text/number-words.js';
import { splitSentences } from '@chartwright/server/internal/text/sentences.js';

/** Units as said after a number (the number decides nothing: "one milligrams" is rare enough). */
const UNITS: Record<string, string> = {
  mg: 'milligrams',
  mgs: 'milligrams',
  mcg: 'micrograms',
  g: 'grams',
  kg: 'kilograms',
  kgs: 'kilograms',
  ml: 'milliliters',
  cc: 'cc',
  l: 'liters',
  mmhg: 'millimeters of mercury',
  lb: 'pounds',
  lbs: 'pounds',
  oz: 'ounces',
  cm: 'centimeters',
  mm: 'millimeters',
  iu: 'international units',
  meq: 'milliequivalents',
  bpm: 'beats per minute',
  hrs: 'hours',
  hr: 'hours',
  min: 'minutes',
  mins: 'minutes',
  yo: 'year old',
};

/** Abbreviations with a period that stand for words. */
const ABBREVIATIONS: Record<string, string> = {
  'dr.': 'doctor',
  'mr.': 'mister',
  'mrs.': 'missus',
  'ms.': 'miss',
  'vs.': 'versus',
  'e.g.': 'for example',
  'i.e.': 'that is',
  'etc.': 'et cetera',
  'approx.': 'approximately',
  'o.k.': 'okay',
};

/** One spelling for words written two ways, so "alright" and "all right" score as the same words. */
const CANONICAL: Record<string, string[]> = {
  alright: ['all', 'right'],
  ok: ['okay'],
};

/**
 * Filled pauses, and "mhm". Left in the spoken dialogue (and the language model, which learns where
 * they fall) but not scored: NIST's scoring treats them as optional too. The recognizer drops filled
 * pauses from its finals; "mhm" it keeps (an answer), but flite cannot say it recognisably.
 */
const isUnscored = (word: string): boolean => isFilledPause(word) || word === 'mhm';

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+|\d+`;

function words(list: readonly string[]): string {
  return ` ${list.join(' ')} `;
}

function integer(text: string): number {
  return Number(text.replace(/,/g, ''));
}

/** A plain number, as years are read when they look like years. */
function numberWords(text: string): string[] {
  const n = integer(text);
  if (/^\d{5,}$/.test(text) && !text.includes(',')) return digits(text);
  if (/^\d{4}$/.test(text) && n >= 1900 && n <= 2099 && n !== 2000) return year(n);
  return cardinal(n);
}

/** "10" or "0.5": a quantity before a unit or a percent sign. */
function quantityWords(text: string): string[] {
  return text.includes('.') ? decimal(text) : numberWords(text);
}

function date(month: string, day: string, yearText: string): string[] {
  const monthName = MONTHS[Number(month) - 1];
  if (monthName === undefined || Number(day) < 1 || Number(day) > 31) return [];
  const spokenYear = yearText.length === 2 ? belowCentury(Number(yearText)) : year(Number(yearText));
  return [monthName, ...ordinal(Number(day)), ...spokenYear];
}

/** Two-digit years: "'71" is "seventy one", "'05" is "oh five". */
function belowCentury(n: number): string[] {
  return n < 10 ? ['oh', ...cardinal(n)] : cardinal(n);
}

function time(hour: string, minute: string, meridiem: string | undefined): string[] {
  const h = Number(hour);
  const m = Number(minute);
  const suffix = meridiem === undefined ? [] : meridiem.startsWith('a') ? ['a', 'm'] : ['p', 'm'];
  if (m === 0) return [...cardinal(h), ...(suffix.length > 0 ? suffix : ["o'clock"])];
  return [...cardinal(h), ...(m < 10 ? ['oh', ...cardinal(m)] : cardinal(m)), ...suffix];
}

/** Each rewrite gets the match and its groups (undefined for a group that did not take part). */
const REWRITES: [RegExp, (match: string, ...groups: (string | undefined)[]) => string][] = [
  // Tokenisation left by the transcription: "ca n't", "it 's", "gon na".
  [/\b(\w+) n't\b/g, (_, stem = '') => `${stem}n't`],
  [/\b(\w+) '(s|m|re|ll|ve|d)\b/g, (_, stem = '', ending = '') => `${stem}'${ending}`],
  [/\b(gon|wan|got) (na|ta)\b/g, (_, a = '', b = '') => `${a}${b}`],
  // Dates and times before anything splits their digits apart.
  [
    /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g,
    (match, m = '', d = '', y = '') => {
      const spoken = date(m, d, y);
      return spoken.length > 0 ? words(spoken) : match.replace(/\//g, ' ');
    },
  ],
  [
    /\b(\d{1,2})-(\d{4})\b/g,
    (match, m = '', y = '') => {
      const month = MONTHS[Number(m) - 1];
      return month === undefined ? match : words([month, ...year(Number(y))]);
    },
  ],
  [/\b(\d{1,2}):(\d{2})\s*(a\.?m\.?|p\.?m\.?)?(?=\W|$)/g, (_, h = '', m = '', meridiem) => words(time(h, m, meridiem))],
  [/\$\s?(\d+(?:,\d{3})*)(?:\.(\d{2}))?/g, (_, dollars = '') => words([...cardinal(integer(dollars)), 'dollars'])],
  // "120/80" is a blood pressure, "1/2" a fraction: both read "over".
  [
    new RegExp(String.raw`\b(${NUMBER})\/(${NUMBER})\b`, 'g'),
    (_, a = '', b = '') => words([...numberWords(a), 'over', ...numberWords(b)]),
  ],
  [/(\d*\.\d+|\d+)\s*%/g, (_, n = '') => words([...quantityWords(n), 'percent'])],
  [
    new RegExp(String.raw`(\d*\.\d+|\b${NUMBER})\s*(${Object.keys(UNITS).join('|')})\b`, 'g'),
    (_, n = '', unit = '') => words([...quantityWords(n), UNITS[unit] ?? unit]),
  ],
  // A range "8-12" is "eight to twelve"; "58-year-old" keeps its words ("fifty eight year old").
  [
    new RegExp(String.raw`\b(${NUMBER})-(${NUMBER})\b`, 'g'),
    (_, a = '', b = '') => words([...numberWords(a), 'to', ...numberWords(b)]),
  ],
  [/\b(\d+)(st|nd|rd|th)\b/g, (_, n = '') => words(ordinal(Number(n)))],
  [new RegExp(String.raw`\b(${NUMBER})'?s\b`, 'g'), (_, n = '') => words(pluralNumber(numberWords(n)))],
  [/(\d*\.\d+)/g, (_, n = '') => words(decimal(n))],
  [/(\d)\+/g, (_, n = '') => `${n} plus `],
  // Letters and digits together ("a1c", "b12", "covid-19", "c7-t1"): each part as said.
  [/([a-z])(\d)/g, (_, letter = '', digit = '') => `${letter} ${digit}`],
  [/(\d)([a-z])/g, (_, digit = '', letter = '') => `${digit} ${letter}`],
  [new RegExp(NUMBER, 'g'), (n) => words(numberWords(n))],
  [/&/g, () => ' and '],
  [/\+/g, () => ' plus '],
  [/=/g, () => ' equals '],
  [/#/g, () => ' number '],
];

/** A sentence (or any span of text) as the recognizer's words. */
export function spokenWords(text: string): string[] {
  let spoken = ` ${text.toLowerCase().replace(/[’‘]/g, "'").replace(/[“”]/g, '"')} `;
  for (const [abbreviation, expansion] of Object.entries(ABBREVIATIONS)) {
    spoken = spoken.split(` ${abbreviation} `).join(` ${expansion} `);
  }
  for (const [pattern, rewrite] of REWRITES) {
    // The replacer's last two arguments are the offset and the whole string.
    spoken = spoken.replace(pattern, (match: string, ...rest: unknown[]) =>
      rewrite(match, ...(rest.slice(0, -2) as (string | undefined)[])),
    );
  }
  return spoken
    .split(/[^a-z']+/)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .flatMap((word) => CANONICAL[word] ?? (word === '' ? [] : [word]));
}

/** Words as word error rate counts them: spoken form without filled pauses. */
export function scoredWords(text: string): string[] {
  return spokenWords(text).filter((word) => !isUnscored(word));
}

/** Text split into sentences, each as the recognizer's words; empty sentences dropped. */
export function spokenSentences(text: string): string[][] {
  return text
    .split(/\n+/)
    .flatMap((paragraph) => splitSentences(paragraph))
    .map(spokenWords)
    .filter((sentence) => sentence.length > 0);
}
