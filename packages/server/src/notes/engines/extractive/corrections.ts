/**
 * Spoken self-corrections: "treat him with penicillin or , i'm sorry , amoxicillin" means
 * amoxicillin. A note that keeps both names a drug, a side or an interval the speaker took back
 * (and the medication list showed penicillin as prescribed).
 */
import { isWord } from './text.js';

/** What a speaker says between the words taken back and the words meant. */
const MARKERS: readonly (readonly string[])[] = [['i', 'am', 'sorry'], ['sorry'], ['excuse', 'me'], ['pardon', 'me']];
/** After these, "sorry" is an apology or a clause of its own ("sorry to hear", "sorry, i missed that"). */
const NOT_A_CORRECTION = new Set('to about for that you i we he she they it if this'.split(' '));
/** How many words before the marker a correction may reach back to. */
const REACH = 4;

const startsWith = (low: readonly string[], at: number, phrase: readonly string[]) =>
  phrase.every((word, offset) => low[at + offset] === word);

/** Index of the first word at or after `at`, skipping punctuation. */
function wordAtOrAfter(low: readonly string[], at: number): number {
  let index = at;
  while (index < low.length && !isWord(low[index] ?? '')) index++;
  return index;
}

/** Words from `at` up to the next punctuation mark. */
function phraseLength(low: readonly string[], at: number): number {
  let length = 0;
  while (at + length < low.length && isWord(low[at + length] ?? '')) length++;
  return length;
}

/** The tokens with one correction applied, or null when `marker` at `at` corrects nothing. */
function correctAt(tokens: readonly string[], low: readonly string[], at: number, marker: readonly string[]) {
  // Before the marker: a comma or an "or" joins it to what it takes back.
  let end = at;
  while (end > 0 && !isWord(low[end - 1] ?? '')) end--;
  if (low[end - 1] === 'or') end--;
  while (end > 0 && !isWord(low[end - 1] ?? '')) end--;
  const meant = wordAtOrAfter(low, at + marker.length);
  const first = low[meant];
  if (end === at || end === 0 || first === undefined || NOT_A_CORRECTION.has(first)) return null;
  let reach = end;
  while (reach > 0 && end - reach < REACH && isWord(low[reach - 1] ?? '')) reach--;
  // "in a couple weeks , or , i'm sorry , a couple months": the meant words restate the start of
  // the taken-back ones; otherwise as many words are taken back as are meant ("penicillin").
  const restated = low.lastIndexOf(first, end - 1);
  const length = phraseLength(low, meant);
  const cut = restated >= reach ? restated : end - length;
  if (restated < reach && (length > REACH - 1 || cut < reach)) return null;
  return [...tokens.slice(0, cut), ...tokens.slice(meant)];
}

/** Applies every spoken correction: the words taken back and the marker go, the words meant stay. */
export function applyCorrections(tokens: readonly string[]): string[] {
  let current = [...tokens];
  for (let guard = 0; guard < 4; guard++) {
    const low = current.map((token) => token.toLowerCase());
    let corrected: string[] | null = null;
    for (let at = 0; at < low.length && corrected === null; at++) {
      const marker = MARKERS.find((phrase) => startsWith(low, at, phrase));
      if (marker !== undefined) corrected = correctAt(current, low, at, marker);
    }
    if (corrected === null) return current;
    current = corrected;
  }
  return current;
}
