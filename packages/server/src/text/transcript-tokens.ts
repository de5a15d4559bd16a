/**
 * Typed transcripts prepared for scoring come tokenised: contractions split ("do n't", "it 's",
 * "gon na") and a spoken decimal point typed as a spaced period ("ninety eight . six", "aldactone
 * twelve . five milligrams"). Read as written, the split forms are words nobody says (the
 * punctuation model never saw "gon" and ends sentences after it), and the period ends a sentence
 * in the middle of a dose. This puts them back as a speaker writes them.
 */
import { ONES, TENS } from './number-words.js';

const NUMBER_WORD = [...ONES, ...TENS.filter((word) => word !== ''), 'hundred', 'thousand'].join('|');
const DIGIT_WORD = ONES.slice(0, 10).join('|');

const REJOINS: readonly (readonly [RegExp, string])[] = [
  [/\b(\w+) (n['’]t)\b/gi, '$1$2'],
  [/\b(\w+) (['’](?:s|m|re|ll|ve|d))\b/gi, '$1$2'],
  [/\b(gon|wan|got) (na|ta)\b/gi, '$1$2'],
  [/\b(\w+) -(year|month|week|day)-old\b/gi, '$1-$2-old'],
  // Only between a number and a single digit: "two . five" is 2.5, a sentence never ends so.
  [new RegExp(String.raw`\b(${NUMBER_WORD}) \. (${DIGIT_WORD})\b`, 'gi'), '$1 point $2'],
  [/(?<![\d.])(\d+) \. (\d)(?![\d.])/g, '$1.$2'],
];

/** The text with split contractions joined and spaced decimal points read as points. */
export function rejoinedTranscriptTokens(text: string): string {
  let result = text;
  for (const [pattern, replacement] of REJOINS) result = result.replace(pattern, replacement);
  return result;
}
