/**
 * The checks a sentence must pass against its evidence, each a contradiction a clinician could
 * not see by reading the note alone:
 * - polarity: it negates what a fact holds present, or states what a fact holds absent;
 * - subject: it states a relative's fact about the patient, or the patient's about a relative (and,
 *   in the cited turns' own words, what they say only of a relative: see turn-subject.ts);
 * - laterality: it names a side its fact does not;
 * - numbers: it states a number (a dose, a value, a duration) that no cited fact or turn states.
 */
import type { ReviewFlagCode } from '@chartwright/protocol';

import type { SentenceEvidence } from './evidence.js';
import { turnSubjectFails } from './turn-subject.js';
import type { FactReading, FactTerm } from './fact-reading.js';
import {
  clauseAt,
  findTerm,
  findWord,
  negationsIn,
  numbersOf,
  polarityAt,
  relativeSubject,
  sidesIn,
  type Hit,
} from './reading.js';

export type CheckCode = Extract<
  ReviewFlagCode,
  'polarity_mismatch' | 'subject_mismatch' | 'laterality_mismatch' | 'number_mismatch'
>;

export interface CheckFailure {
  code: CheckCode;
  /** The facts the sentence contradicts (every fact it rests on, for a number none states). */
  facts: string[];
}

function polarityFails(text: string, hit: Hit, term: FactTerm): boolean {
  if (term.negated === null) return false;
  const polarity = polarityAt(text, hit);
  return polarity !== 'uncertain' && (polarity === 'absent') !== term.negated;
}

function subjectFails(text: string, hit: Hit, reading: FactReading): boolean {
  const { fact } = reading;
  if (fact.subject.type === 'relative') {
    // The relative may be named anywhere before the mention ("Mother: breast cancer").
    return (
      relativeSubject(text.slice(0, hit.start)) === undefined && relativeSubject(clauseAt(text, hit)) === undefined
    );
  }
  return fact.subject.type === 'patient' && relativeSubject(clauseAt(text, hit)) !== undefined;
}

function lateralityFails(text: string, hit: Hit, reading: FactReading): boolean {
  if (reading.sides.size === 0) return false;
  const said = sidesIn(clauseAt(text, hit));
  return said.size > 0 && ![...said].some((side) => reading.sides.has(side));
}

/** The contradictions between a fact that names a term and a sentence that states the whole term. */
function factFailures(text: string, reading: FactReading): CheckCode[] {
  const { term } = reading;
  if (term === null || term.words.some((word) => findWord(text, word) === undefined)) return [];
  const hit = findTerm(text, term.words, term.head);
  if (hit === undefined) return [];
  const codes: CheckCode[] = [];
  if (polarityFails(text, hit, term)) codes.push('polarity_mismatch');
  if (subjectFails(text, hit, reading)) codes.push('subject_mismatch');
  if (lateralityFails(text, hit, reading)) codes.push('laterality_mismatch');
  return codes;
}

/** The numbers of the sentence that its evidence never states. */
export function unsaidNumbers(text: string, evidence: SentenceEvidence): string[] {
  const said = new Set(evidence.sourceText.flatMap((source) => numbersOf(source, { inWords: true })));
  return numbersOf(text).filter((number) => !said.has(number));
}

/**
 * A sentence matched to its facts by its turns (it cites none) may state another fact of those
 * turns with the same word ("no tenderness over the wrist" beside "tenderness over the elbow"):
 * a polarity disagreement is excused when a fact nearby says the word as the sentence does.
 */
function excused(text: string, reading: FactReading, evidence: SentenceEvidence): boolean {
  const { term } = reading;
  const hit = term === null ? undefined : findTerm(text, term.words, term.head);
  if (evidence.citedFacts || term === null || hit === undefined) return false;
  const { head } = term;
  const negated = polarityAt(text, hit) === 'absent';
  return evidence.nearby.some((other) => {
    if (other === reading) return false;
    const lower = other.fact.text.toLowerCase();
    const at = findWord(lower, head);
    if (at === undefined) return false;
    const own = negationsIn(lower).count > 0 ? polarityAt(lower, at) === 'absent' : other.fact.polarity === 'absent';
    return own === negated;
  });
}

export function checkSentence(sentenceText: string, evidence: SentenceEvidence): CheckFailure[] {
  const text = sentenceText.toLowerCase();
  const byCode = new Map<CheckCode, string[]>();
  for (const reading of evidence.facts) {
    for (const code of factFailures(text, reading)) {
      if (code === 'polarity_mismatch' && excused(text, reading, evidence)) continue;
      byCode.set(code, [...(byCode.get(code) ?? []), reading.fact.id]);
    }
  }
  if (!byCode.has('subject_mismatch') && turnSubjectFails(text, evidence.turnText)) {
    byCode.set(
      'subject_mismatch',
      evidence.facts.map((reading) => reading.fact.id),
    );
  }
  if (unsaidNumbers(text, evidence).length > 0) {
    byCode.set(
      'number_mismatch',
      evidence.facts.map((reading) => reading.fact.id),
    );
  }
  return [...byCode].map(([code, facts]) => ({ code, facts }));
}
