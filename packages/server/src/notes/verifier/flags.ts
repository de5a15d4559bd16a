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
 * The facts of `low` certainty, with the weighty words heard under the threshold: one flag per set
 * of doubtful words (the facts of one turn share them), naming every fact that rests on them and
 * pointing at the first sentence that states one of them (or at none when the note leaves them out).
 */
export function lowConfidenceFlags(
  facts: readonly Fact[],
  conversation: Conversation,
  placeOf: (factId: string) => FlagPlace | undefined,
): ReviewFlag[] {
  const byWords = new Map<string, ReviewFlag>();
  for (const fact of facts.filter((candidate) => candidate.certainty === 'low')) {
    const words = doubtfulWords(fact, conversation);
    const key = JSON.stringify(words);
    const place = placeOf(fact.id);
    const flag = byWords.get(key);
    if (flag === undefined) {
      const { section, sentence } = place ?? { section: null, sentence: null };
      const message = MESSAGES.low_confidence_word;
      byWords.set(key, { code: 'low_confidence_word', message, section, sentence, facts: [fact.id], words });
      continue;
    }
    flag.facts.push(fact.id);
    if (flag.section === null && place !== undefined) Object.assign(flag, place);
  }
  return [...byWords.values()];
}
