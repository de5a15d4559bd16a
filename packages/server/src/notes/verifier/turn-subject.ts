/**
 * The subject check against the words of the cited turns, for what the fact sheet does not hold
 * as a fact (a relative's condition told in passing): a sentence clause about the patient whose
 * words the turns say only of a relative ("my mother had breast cancer" → "The patient has a
 * history of breast cancer.") gives a relative's condition to the patient.
 */
import { relativeIn } from '../facts/lexicon/relatives.js';
import { findWord, contentWords, relativeSubject } from './reading.js';

const CLAUSES = /[.;!?]|\b(?:and|but|while)\b/;

/** The clauses of a text that hold every one of `words`. */
function clausesWith(text: string, words: readonly string[]): string[] {
  return text.split(CLAUSES).filter((clause) => words.every((word) => findWord(clause, word) !== undefined));
}

/** Whether a sentence clause about the patient states what the turns say only of a relative. */
function clauseFails(clause: string, turnText: readonly string[]): boolean {
  const words = contentWords(clause);
  if (words.length < 2 || relativeSubject(clause) !== undefined) return false;
  const said = turnText.flatMap((text) => clausesWith(text, words));
  return said.length > 0 && said.every((told) => relativeIn(told) !== undefined);
}

export function turnSubjectFails(sentenceText: string, turnText: readonly string[]): boolean {
  if (turnText.length === 0) return false;
  return sentenceText
    .toLowerCase()
    .split(CLAUSES)
    .some((clause) => clauseFails(clause, turnText));
}
