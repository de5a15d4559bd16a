/**
 * Review flags: what the clinician should check before signing, as structured fields beside the
 * note (never in its text). Messages say what to check and never repeat patient data.
 */
import type { Fact, ReviewFlag, ReviewFlagCode } from '@chartwright/protocol';

import type { Conversation } from '../../text/conversation.js';
import { doubtfulWords } from '../facts/certainty.js';

const MESSAGES: Readonly<Record<ReviewFlagCode, string>> = {
  low_confidence_word:
    'The recognizer was unsure of a word this rests on (a negation, number, dose, drug name, side or the symptom itself): check it against the visit.',
  unsupported_sentence:
    'Nothing said in the visit or given in the chart supports this sentence: check it before signing.',
  polarity_mismatch: 'This sentence denies what the visit states, or states what was denied: check it.',
  subject_mismatch:
    "This sentence gives a relative's history to the patient, or the patient's to a relative: check it.",
  laterality_mismatch: 'This sentence names a side the visit does not: check left and right.',
  number_mismatch: 'This sentence states a number or dose that nobody said in the visit: check it.',
  uncited_sentence: 'This sentence cites nothing from the visit or the chart: check it before signing.',
};

/** Where a flag points: a sentence of a section, or (for a removed sentence) the section alone. */
export interface FlagPlace {
  section: string | null;
  sentence: number | null;
}

export function sentenceFlag(
  code: ReviewFlagCode,
  place: FlagPlace,
  facts: readonly string[],
  options: { removed?: boolean } = {},
): ReviewFlag {
  const message =
    options.removed === true ? `A sentence was removed from the draft. ${MESSAGES[code]}` : MESSAGES[code];
  return { code, message, section: place.section, sentence: place.sentence, facts: [...facts], words: [] };
}

/**
 * One flag per fact of `low` certainty, with the weighty words heard under the threshold, pointing
 * at the first sentence that states the fact (or at no sentence when the note leaves it out).
 */
export function lowConfidenceFlags(
  facts: readonly Fact[],
  conversation: Conversation,
  placeOf: (factId: string) => FlagPlace,
): ReviewFlag[] {
  return facts
    .filter((fact) => fact.certainty === 'low')
    .map((fact) => ({
      code: 'low_confidence_word' as const,
      message: MESSAGES.low_confidence_word,
      ...placeOf(fact.id),
      facts: [fact.id],
      words: doubtfulWords(fact, conversation),
    }));
}
