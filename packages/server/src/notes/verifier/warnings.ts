/**
 * Warnings instead of silent success, each with a code and a plain message for the clinician:
 * - `not_english`: the offline engines read English only. A conversation of at least 20 words is
 *   judged not English when under 15% of its words are common English function words (45–57% in
 *   the ACI-Bench train and valid dialogues; 7% in the Spanish visit of the tests) or when over a
 *   third of its letters are outside a–z.
 * - `no_clinical_content`: nothing clinical was found in what was said (no fact of a clinical kind).
 * - `low_confidence_transcript`: over half the recognizer's words (when it gave confidences for at
 *   least 10) were heard under the confidence threshold.
 */
import type { Fact, NoteWarning } from '@chartwright/protocol';

import type { Conversation } from '../../text/conversation.js';
import { LOW_CONFIDENCE } from '../../text/clinical-weight.js';

const FUNCTION_WORDS = new Set(
  (
    'the a an and or but of to in on at for with from by about as is are was were be been being have has had ' +
    'do does did i you he she it we they me him her us them my your his its our their this that these those ' +
    'not no yes what when where how why which who any some all so if then there here just very can will would ' +
    "could should any okay well i'm it's don't you're that's"
  ).split(/\s+/),
);

export const MIN_WORDS_FOR_LANGUAGE = 20;
export const MIN_FUNCTION_WORD_SHARE = 0.15;
export const MIN_WORDS_FOR_CONFIDENCE = 10;
export const MAX_LOW_CONFIDENCE_SHARE = 0.5;

const MESSAGES = {
  not_english:
    'The conversation does not look like English, the only language the offline note engine reads: the note may miss or misread what was said.',
  no_clinical_content:
    'No clinical content (symptoms, medicines, findings, assessment or plan) was found in the conversation: check that the right recording was used.',
  low_confidence_transcript:
    'Most of the transcript was heard with low confidence: the note may contain misheard words, so check it against the visit.',
} as const;

const warning = (code: keyof typeof MESSAGES): NoteWarning => ({ code, message: MESSAGES[code] });

export function looksEnglish(text: string): boolean {
  const tokens = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  if (tokens.length < MIN_WORDS_FOR_LANGUAGE) return true;
  const letters = text.match(/\p{L}/gu) ?? [];
  const foreign = letters.filter((letter) => !/[a-zA-Z]/.test(letter)).length;
  if (foreign * 3 > letters.length) return false;
  const share = tokens.filter((token) => FUNCTION_WORDS.has(token)).length / tokens.length;
  return share >= MIN_FUNCTION_WORD_SHARE;
}

/** The share of the recognizer's words under the threshold, or null when it gave too few. */
export function lowConfidenceShare(conversation: Conversation): number | null {
  const confidences = conversation.turns.flatMap((turn) =>
    (turn.words ?? []).flatMap((word) => (word.confidence === undefined ? [] : [word.confidence])),
  );
  if (confidences.length < MIN_WORDS_FOR_CONFIDENCE) return null;
  return confidences.filter((confidence) => confidence < LOW_CONFIDENCE).length / confidences.length;
}

const clinical = (fact: Fact) => fact.kind !== 'narrative' && fact.source.turns.length > 0;

export function noteWarnings(conversation: Conversation, facts: readonly Fact[]): NoteWarning[] {
  const warnings: NoteWarning[] = [];
  if (!looksEnglish(conversation.turns.map((turn) => turn.text).join(' '))) warnings.push(warning('not_english'));
  if (!facts.some(clinical)) warnings.push(warning('no_clinical_content'));
  const share = lowConfidenceShare(conversation);
  if (share !== null && share > MAX_LOW_CONFIDENCE_SHARE) warnings.push(warning('low_confidence_transcript'));
  return warnings;
}
