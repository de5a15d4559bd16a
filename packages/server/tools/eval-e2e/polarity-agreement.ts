/**
 * Where the note from audio says the opposite of the note from the typed transcript: a sentence of
 * the typed note whose closest sentence in the note from audio (most content words shared, out of
 * the longer of the two; negations aside) is negated in one and not in the other. "Denies heartburn."
 * against "Endorses heartburn.", "No supraclavicular adenopathy." against "Supraclavicular
 * adenopathy.": the errors a clinician signing the note must not miss. A sentence with no close
 * counterpart (left out, or heard too badly to match) is not counted: ROUGE measures those.
 */
import { expandContractions } from '@chartwright/server/internal/notes/engines/extractive/clean.js';
import { STOPWORDS } from '@chartwright/server/internal/notes/engines/extractive/text.js';

import { tokenize } from '../eval-notes/rouge.js';

export interface PolarityDisagreement {
  typed: string;
  audio: string;
}

/** How much of the longer sentence the two share for them to be taken as the same statement. */
const SAME_STATEMENT = 0.6;

const NEGATION = new Set(['no', 'not', 'cannot', 'denies', 'denied', 'negative', 'without', 'never', 'none', 'nor']);
/** Words of a note's frame, the same whatever the statement. */
const FRAME = new Set(['patient', 'reports', 'endorses', 'history']);

/** The sentence's words, "doesn't" read as "does not" (tokenized, it would be "doesn" and "t"). */
const words = (sentence: string): string[] => tokenize(expandContractions(sentence));

/** A section's label before the statement ("Musculoskeletal: …", "Heart exam: …") says where, not what. */
const LABEL = /^[A-Z][A-Za-z ,&]{0,40}:\s+/;

const contentWords = (sentence: string): Set<string> =>
  new Set(
    words(sentence.replace(LABEL, '')).filter(
      (word) => !NEGATION.has(word) && !STOPWORDS.has(word) && !FRAME.has(word),
    ),
  );

const negated = (sentence: string): boolean => words(sentence).some((word) => NEGATION.has(word));

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.max(1, a.size, b.size);
}

export function polarityDisagreements(
  audioSentences: readonly string[],
  typedSentences: readonly string[],
): PolarityDisagreement[] {
  const audio = audioSentences.map((sentence) => ({ sentence, words: contentWords(sentence) }));
  const found: PolarityDisagreement[] = [];
  for (const typed of typedSentences) {
    const said = contentWords(typed);
    if (said.size < 2) continue;
    let best: { sentence: string; score: number } | null = null;
    for (const candidate of audio) {
      const score = overlap(said, candidate.words);
      if (score >= SAME_STATEMENT && (best === null || score > best.score))
        best = { sentence: candidate.sentence, score };
    }
    if (best !== null && negated(typed) !== negated(best.sentence)) found.push({ typed, audio: best.sentence });
  }
  return found;
}
