/**
 * How sure a fact is, from the recognizer's confidence in the words it rests on. Only words that
 * carry clinical weight count — negations (no/now, not), numbers, doses and units, drug names,
 * sides, systolic/diastolic — and only when one of them was heard with less confidence than the
 * threshold: then the fact is `low` and the note says so in a review flag, never silently.
 */
import type { FactCertainty } from '@chartwright/protocol';

import type { Conversation, TurnWord } from '../../text/conversation.js';
import type { FactDraft } from './draft.js';

/**
 * Below this a weighty word is doubtful. Calibrated on ACI-Bench valid spoken by flite and
 * recognized by PocketSphinx: weighty words under 0.8 were wrong about one time in four (in the
 * band 0.6–0.8 one in five), those above it one in 65; docs/notes.md has the table.
 */
export const LOW_CONFIDENCE = 0.8;

const NEGATION = /^(?:no|not|never|none|nothing|without|denies|now|know)$/;
const SIDE = /^(?:left|right|both|bilateral)$/;
const WEIGHTY_TERMS =
  /^(?:systolic|diastolic|mg|milligrams?|mcg|micrograms?|units?|ml|grams?|percent|twice|once|daily)$/;
const NUMBER_WORD =
  /^(?:\d+(?:\.\d+)?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|point)$/;

/** Whether a recognized word could change what a fact means if it was misheard. */
export function carriesWeight(word: string, factWords: ReadonlySet<string>): boolean {
  const low = word.toLowerCase();
  return NEGATION.test(low) || SIDE.test(low) || WEIGHTY_TERMS.test(low) || NUMBER_WORD.test(low) || factWords.has(low);
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
