/**
 * Where a statement names a diagnosis or an operation from the history lexicon: read by the
 * history (past and family) and by the problems (a chronic condition that is active today).
 */
import { CONDITIONS, PROCEDURES, type HistoryEntry } from './lexicon/conditions.js';
import { PhraseMatcher, type Mention } from './mentions.js';

const CONDITION_MATCHER = new PhraseMatcher<HistoryEntry>(CONDITIONS, (entry) => entry.phrases);
const PROCEDURE_MATCHER = new PhraseMatcher<HistoryEntry>(PROCEDURES, (entry) => entry.phrases);

/** "CVA tenderness" is the costovertebral angle of an exam, not a stroke. */
const COSTOVERTEBRAL = /^\s+(?:tend\w*|tinnit\w*|pain|area|region|angle)\b/;

export function conditionsIn(text: string): Mention<HistoryEntry>[] {
  return CONDITION_MATCHER.find(text).filter(
    (mention) => !(mention.said === 'cva' && COSTOVERTEBRAL.test(text.slice(mention.end))),
  );
}

export function proceduresIn(text: string): Mention<HistoryEntry>[] {
  return PROCEDURE_MATCHER.find(text);
}
