/**
 * How sure a fact is, from the recognizer's confidence in the words it rests on. Only words that
 * carry clinical weight count — negations (no/now, not), numbers, doses and units, drug names,
 * sides, systolic/diastolic — and only when one of them was heard with less confidence than the
 * threshold: then the fact is `low` and the note says so in a review flag, never silently.
 */
import type { FactCertainty } from '@chartwright/protocol';

import { clinicalWeight, LOW_CONFIDENCE } from '../../text/clinical-weight.js';
import type { Conversation, TurnWord } from '../../text/conversation.js';
import type { FactDraft } from './draft.js';

/** Whether a recognized word could change what a fact means if it was misheard. */
export function carriesWeight(word: string, factWords: ReadonlySet<string>): boolean {
  return clinicalWeight(word) !== null || factWords.has(word.toLowerCase());
}

/** The weighty words of the fact's turns heard below the threshold. */
export function doubtfulWords(
  draft: Pick<FactDraft, 'text' | 'source'>,
  conversation: Conversation,
): { word: string; confidence: number; turn: number }[] {
  const factWords = new Set(
    draft.text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 3),
  );
  const doubtful: { word: string; confidence: number; turn: number }[] = [];
  for (const index of draft.source.turns) {
    const words: readonly TurnWord[] = conversation.turns[index]?.words ?? [];
    for (const { word, confidence } of words) {
      if (confidence !== undefined && confidence < LOW_CONFIDENCE && carriesWeight(word, factWords)) {
        doubtful.push({ word, confidence, turn: index });
      }
    }
  }
  return doubtful;
}

export function certaintyOf(draft: FactDraft, conversation: Conversation): FactCertainty {
  return doubtfulWords(draft, conversation).length > 0 ? 'low' : 'high';
}
