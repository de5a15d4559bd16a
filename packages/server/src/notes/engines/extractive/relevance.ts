import type { Kind } from './lexicons.js';
import { SMALL_TALK_PATTERNS } from './lexicons.js';
import type { Statement } from './statements.js';
import { isNarration } from './style.js';
import { STOPWORDS, isWord } from './text.js';

/**
 * How much a statement belongs in a note, from 0 up. The core is how often its words, when said in
 * a visit, end up in the clinician's note (a per-word rate learned from the ACI-Bench training
 * split, see word-weights.ts); on top of that come what notes always keep (numbers, denials)
 * and what they never do (small talk, questions, conversation management). Statements scoring 0
 * are never used.
 */
/** Whether a statement is something said about the visit at all: not a question, not small talk. */
export function isUsable(statement: Statement): boolean {
  if (statement.question) return false;
  if (isNarration(statement)) return false;
  // Some small talk shows in the words as said ("hi, Mrs. Lane"), some after cleaning.
  return !SMALL_TALK_PATTERNS.some((pattern) => pattern.test(statement.lower) || pattern.test(statement.raw));
}

export function relevance(
  statement: Statement,
  kind: Kind,
  rewrittenWords: readonly string[],
  weigh: (word: string) => number,
): number {
  if (!isUsable(statement)) return 0;
  const content = rewrittenWords
    .map((word) => word.toLowerCase())
    .filter((word) => isWord(word) && !STOPWORDS.has(word));
  if (content.length < 2 && !(kind === 'exam' || kind === 'vitals' || kind === 'assessment')) return 0;
  if (content.length === 0) return 0;
  let sum = 0;
  for (const word of content) sum += weigh(word);
  let score = sum / content.length;
  if (content.some((word) => /\d/.test(word))) score += 0.05;
  // What a note must never miss, however plainly it was said.
  if (kind === 'allergies') score += 0.3;
  if ((kind === 'vitals' || kind === 'medications') && content.some((word) => /\d/.test(word))) score += 0.2;
  // Very short statements are rarely self-contained; long ones carry more of a note's words.
  if (content.length < 3) score -= 0.1;
  if (statement.speaker === 'other' || statement.speaker === 'unknown') score -= 0.05;
  return Math.max(0, score);
}
