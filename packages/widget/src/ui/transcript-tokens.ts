import type { TranscriptSegment } from '@chartwright/protocol';

/** Below this the recognizer was unsure of a word: its display token is marked for the clinician to check. */
export const UNSURE_BELOW = 0.5;

export interface ShownToken {
  text: string;
  /** The lowest confidence of the words it came from, when under UNSURE_BELOW; null otherwise. */
  unsure: number | null;
}

/**
 * The segment's display tokens, each with how unsure the recognizer was of the words it came from.
 * Tokens point at words of `text`; they are `words` too only when `words` has one entry per word
 * of `text` (a corrected text has no words at all), so nothing is marked otherwise.
 */
export function shownTokens(segment: TranscriptSegment): ShownToken[] {
  const { words } = segment;
  const aligned = words?.length === segment.text.split(/\s+/).filter((word) => word !== '').length;
  return segment.displayTokens.map((token) => {
    const confidences = aligned
      ? words
          .slice(token.wordStart, token.wordEnd)
          .flatMap((word) => (word.confidence === undefined ? [] : [word.confidence]))
      : [];
    const lowest = confidences.length === 0 ? null : Math.min(...confidences);
    return { text: token.text, unsure: lowest !== null && lowest < UNSURE_BELOW ? lowest : null };
  });
}
