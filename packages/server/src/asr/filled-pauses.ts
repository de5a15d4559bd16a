/**
 * Filled pauses: sounds that hold the floor, not words. The clinical language model keeps them (it
 * learned where they fall in conversation, which helps it place the words around them), so the
 * decoder hears "um" as "um" rather than forcing a word onto it ("and any tendon"), but no final
 * carries them. "mhm", "uh-huh" and "mm-hmm" answer a question (yes) and stay words.
 */
const FILLED_PAUSES: ReadonlySet<string> = new Set(['um', 'uh', 'er', 'erm', 'ah', 'eh', 'hm', 'hmm', 'mm']);

export function isFilledPause(word: string): boolean {
  return FILLED_PAUSES.has(word);
}

/**
 * Words the en-us acoustic model hears a filled pause as, each with the posterior below which the
 * best path's word is taken for the pause. A sentence-opening or in-phrase "uh" comes out as "but"
 * (the glottal onset and stop match B-AH-T better than any filler pronunciation the model can
 * hold); where the word was said, the search is sure of it. Measured on flite dialogue and the real
 * speech set in docs/realtime.md, "Filled pauses".
 */
const HEARD_FOR_FILLED_PAUSES: ReadonlyMap<string, number> = new Map([['but', 0.5]]);

/** A recognised word that is more likely a filled pause than the word: drop it like one. */
export function isHeardForFilledPause(word: string, confidence: number): boolean {
  const below = HEARD_FOR_FILLED_PAUSES.get(word);
  return below !== undefined && confidence < below;
}
