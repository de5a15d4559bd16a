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
