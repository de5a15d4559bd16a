/**
 * What the verifier needs to know of a fact to check a sentence against it: the words that show a
 * sentence speaks of it, the term a sentence states it by (for facts that name one thing: a
 * symptom, a medicine, an allergy, a finding) and whether that term should be negated, the sides
 * it names, and all its words (what numbers and content words a sentence may take from it).
 * Facts told as whole statements (narrative, assessment, plan) have no term: a sentence is not
 * checked against their polarity or subject, only against their words and numbers.
 */
import type { Fact } from '@chartwright/protocol';

import { contentWords, findWord, negationsIn, polarityAt, sidesIn, type Side } from './reading.js';

export interface FactTerm {
  /** Every one of them stands in a sentence that states the fact. */
  words: string[];
  /** The word whose negation decides the sentence's polarity: the term's last. */
  head: string;
  /** Whether a sentence stating the fact negates the term; null when that is not judged. */
  negated: boolean | null;
}

export interface FactReading {
  fact: Fact;
  /** Words any one of which shows a sentence speaks of the fact. */
  mentions: string[];
  term: FactTerm | null;
  sides: Set<Side>;
  /** Every word of the fact: its text and fields. */
  text: string;
}

/** A finding longer than this is a statement, not a term. */
const MAX_TERM_WORDS = 4;

/** The field that names the fact, when it names one thing. */
function termText(fact: Fact): string | undefined {
  switch (fact.kind) {
    case 'problem':
    case 'medication':
      return fact.name;
    case 'allergy':
      return fact.substance ?? 'allergies';
    case 'history':
      return fact.category === 'social' ? undefined : fact.item;
    case 'ros':
    case 'exam':
      return fact.finding;
    case 'result':
      return fact.interpretation;
    case 'vital':
    case 'assessment':
    case 'plan':
    case 'narrative':
      return undefined;
  }
}

/** A term said with its own negation ("no wheezing") is negated as its words say; else as the fact's polarity. */
function negatedOf(fact: Fact, text: string, head: string): boolean | null {
  if (fact.polarity === 'uncertain') return null;
  if (fact.kind === 'medication' && (fact.status === 'stopped' || fact.change === 'stopped')) return null;
  const hit = findWord(text, head);
  if (negationsIn(text).count === 0 || hit === undefined) return fact.polarity === 'absent';
  return polarityAt(text, hit) === 'absent';
}

function termOf(fact: Fact): FactTerm | null {
  const text = termText(fact)?.toLowerCase();
  if (text === undefined) return null;
  const { count, lastEnd } = negationsIn(text);
  const words = contentWords(count > 0 ? text.slice(lastEnd) : text);
  const head = words.at(-1);
  if (head === undefined || words.length > MAX_TERM_WORDS) return null;
  return { words, head, negated: negatedOf(fact, text, head) };
}

function sidesOf(fact: Fact): Set<Side> {
  if (fact.kind === 'problem' && fact.laterality !== undefined) {
    return fact.laterality === 'bilateral' ? new Set<Side>(['left', 'right']) : new Set<Side>([fact.laterality]);
  }
  return sidesIn(fact.text.toLowerCase());
}

/** Every string and number of the fact but its bookkeeping (id, kind, speaker, certainty). */
function allWords(fact: Fact): string {
  const skip = new Set(['id', 'kind', 'speaker', 'certainty', 'polarity', 'subject', 'source']);
  const parts: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') parts.push(String(value));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  for (const [key, value] of Object.entries(fact)) if (!skip.has(key)) visit(value);
  return parts.join(' ').toLowerCase();
}

export function readFact(fact: Fact): FactReading {
  const term = termOf(fact);
  const mentions = term?.words ?? contentWords(fact.text.toLowerCase());
  return { fact, mentions, term, sides: sidesOf(fact), text: allWords(fact) };
}
