/**
 * How the verifier reads a sentence (of the note, of a fact, of a turn): lower-case text, the
 * clause around a word, whether a word is negated there, the sides and relatives a clause names,
 * the numbers a text states (spoken numbers as digits) and its content words.
 */
import type { FactPolarity } from '@chartwright/protocol';

import { FRAMING_WORDS } from '../engines/extractive/lexicons.js';
import { digitize } from '../../text/spoken-numbers.js';
import { STOPWORDS, stem, tokenize, words } from '../engines/extractive/text.js';
import { relationNamed } from '../facts/lexicon/relatives.js';
import { mentionPolarity } from '../facts/polarity.js';

export type Side = 'left' | 'right';

/** Where a word stands in a lower-case text. */
export interface Hit {
  start: number;
  end: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function wordPattern(word: string): RegExp | undefined {
  const base = stem(word);
  if (base === '') return undefined;
  // "allergy" (the stem of "allergies") must still find "allergies".
  const prefix = base.length > 3 && base.endsWith('y') ? base.slice(0, -1) : base;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(prefix)}[\\p{L}']*`, 'gu');
}

/** Every place `word` (any inflection of its stem) stands in `text`, which is lower case. */
export function findAll(text: string, word: string): Hit[] {
  const pattern = wordPattern(word);
  if (pattern === undefined) return [];
  return [...text.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** The first place `word` stands in `text`. */
export const findWord = (text: string, word: string): Hit | undefined => findAll(text, word)[0];

/** Where a term is stated: the place of its head whose clause holds most of its other words. */
export function findTerm(text: string, words: readonly string[], head: string): Hit | undefined {
  let best: { hit: Hit; score: number } | undefined;
  for (const hit of findAll(text, head)) {
    const clause = clauseAt(text, hit);
    const score = words.filter((word) => findWord(clause, word) !== undefined).length;
    if (best === undefined || score > best.score) best = { hit, score };
  }
  return best?.hit;
}

/** The polarity of the word at `hit`: a negation before it in its clause makes it absent. */
export function polarityAt(text: string, hit: Hit): FactPolarity {
  return mentionPolarity(text, hit.start, hit.end);
}

const CLAUSE_EDGE = /[,;:.!?]|\b(?:and|but|while|whereas|although)\b/g;

/** The clause of `text` that holds `hit`: between punctuation and the conjunctions that join clauses. */
export function clauseAt(text: string, hit: Hit): string {
  let start = 0;
  let end = text.length;
  CLAUSE_EDGE.lastIndex = 0;
  for (let match = CLAUSE_EDGE.exec(text); match !== null; match = CLAUSE_EDGE.exec(text)) {
    if (match.index + match[0].length <= hit.start) start = match.index + match[0].length;
    else if (match.index >= hit.end) {
      end = match.index;
      break;
    }
  }
  return text.slice(start, end);
}

/** The sides a text names; "both" and "bilateral" name both. */
export function sidesIn(text: string): Set<Side> {
  const sides = new Set<Side>();
  if (/\bleft\b/.test(text)) sides.add('left');
  if (/\bright\b(?!\s+(?:now|away|after|before|there|here))/.test(text)) sides.add('right');
  if (/\b(?:both|bilateral|bilaterally)\b/.test(text)) {
    sides.add('left');
    sides.add('right');
  }
  return sides;
}

/** A relative someone speaks *through* ("her mother reports …") is the speaker, not the subject. */
const REPORTING_RELATIVE =
  /\b(?:mother|mom|father|dad|sister|brother|grandmother|grandfather|aunt|uncle|son|daughter|parents?|wife|husband|partner)\s+(?:reports|states|says|notes|adds|explains|confirms|denies|describes|is concerned)\b/;

/** The relative a clause speaks about ("mother", "father" …), or undefined when it speaks of the patient. */
export function relativeSubject(clause: string): string | undefined {
  if (/\bfamily\b/.test(clause)) return 'family';
  if (REPORTING_RELATIVE.test(clause)) return undefined;
  return relationNamed(clause);
}

/**
 * The numbers a text states, spoken ones included ("ten" → 10, "120/80" → 120 and 80). A claim's
 * numbers are whole number tokens (not the 1 of "HbA1c"); `inWords: true` reads evidence, where
 * every digit run counts ("10mg", "45-year-old").
 */
export function numbersOf(text: string, options: { inWords?: boolean } = {}): string[] {
  const tokens = digitize(tokenize(text.toLowerCase()).map((token) => token.replace(/(?<=\d),(?=\d{3})/g, '')));
  return tokens
    .filter((token) => options.inWords === true || /^\d+(?:[./]\d+)*%?$/.test(token))
    .flatMap((token) => token.match(/\d+(?:\.\d+)?/g) ?? [])
    .map((number) => String(Number(number)));
}

/** Words a note adds to frame what was said: they claim nothing the evidence has to hold. */
const NOTE_FRAMING = new Set([
  ...FRAMING_WORDS,
  ...'reported reporting states stated notes noted presents presenting complains describes mentions endorsed denied chart known today currently history chief complaint started stopped continued adjusted suspect likely possible consistent the patient mmhg'.split(
    ' ',
  ),
]);

/** The words that carry a text's claims, as written: no function words, framing words or numbers. */
export function contentWords(text: string): string[] {
  return words(text).filter(
    (word) =>
      (CLINICAL.has(word) || (!STOPWORDS.has(word) && !NOTE_FRAMING.has(word))) && !/\d/.test(word) && word.length > 1,
  );
}

/** Function words elsewhere, clinical words here ("back pain"). */
const CLINICAL = new Set(['back']);

/** Their stems, for comparing a sentence with its evidence. */
export const contentStems = (text: string): string[] => contentWords(text).map(stem);

const NEGATION_CUE = /\b(?:no|not|never|without|denies|denied|none|negative for|free of|absence of)\b|n't\b/g;

/** Where the last negation of a text ends, and how many there are: what a fact's own words deny. */
export function negationsIn(text: string): { count: number; lastEnd: number } {
  let count = 0;
  let lastEnd = -1;
  NEGATION_CUE.lastIndex = 0;
  for (let match = NEGATION_CUE.exec(text); match !== null; match = NEGATION_CUE.exec(text)) {
    count += 1;
    lastEnd = match.index + match[0].length;
  }
  return { count, lastEnd };
}
