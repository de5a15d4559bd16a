/**
 * Spoken self-repairs. A correction: "treat him with penicillin or , i'm sorry , amoxicillin" means
 * amoxicillin; a note that keeps both names a drug, a side or an interval the speaker took back (and
 * the medication list showed penicillin as prescribed). A restart: "if she needs to give any , to
 * give her any iron" means "if she needs to give her any iron".
 */
import { isWord, phraseAt, STOPWORDS } from './text.js';

/** What a speaker says between the words taken back and the words meant. */
const MARKERS: readonly (readonly string[])[] = [['i', 'am', 'sorry'], ['sorry'], ['excuse', 'me'], ['pardon', 'me']];
/** After these, "sorry" is an apology or a clause of its own ("sorry to hear", "sorry, i missed that"). */
const NOT_A_CORRECTION = new Set('to about for that you i we he she they it if this'.split(' '));
/** How many words before the marker a correction may reach back to. */
const REACH = 4;

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
      const marker = MARKERS.find((phrase) => phraseAt(low, at, phrase));
      if (marker !== undefined) corrected = correctAt(current, low, at, marker);
    }
    if (corrected === null) return current;
    current = corrected;
  }
  return current;
}

/** How far back, in tokens, a restart may find the words it repeats. */
const RESTART_REACH = 8;
/** At most this many words are abandoned before a restart. */
const MAX_ABANDONED = 4;
/** Function words that can close a phrase: "he is doing well , he is …" is two statements. */
const CLOSES_A_PHRASE = new Set('well fine good better worse okay ok alright right sure too though'.split(' '));

/**
 * The abandoned start of a restart, in tokens before `comma`: the same two words that follow the
 * comma, then at most four words that break off on a function word or a verb ("to give any ,",
 * "she is doing ,"). A list ("he took some tylenol , he took some ibuprofen") is no restart: its
 * items end on what they name.
 */
function abandonedStart(low: readonly string[], comma: number): number | null {
  const [first, second] = [low[comma + 1] ?? '', low[comma + 2] ?? ''];
  if (!isWord(first) || !isWord(second)) return null;
  for (let at = comma - 2; at >= Math.max(0, comma - RESTART_REACH); at--) {
    if (/^[.?!;]$/.test(low[at] ?? '')) return null;
    if (low[at] !== first || low[at + 1] !== second) continue;
    const abandoned = low.slice(at + 2, comma).filter(isWord);
    const last = abandoned.at(-1) ?? '';
    const breaksOff = (STOPWORDS.has(last) || last.endsWith('ing')) && !CLOSES_A_PHRASE.has(last);
    return abandoned.length > 0 && abandoned.length <= MAX_ABANDONED && breaksOff ? at : null;
  }
  return null;
}

/** Drops each abandoned start a speaker repeated and went on from. */
export function dropRestarts(tokens: readonly string[]): string[] {
  let current = [...tokens];
  for (let comma = current.indexOf(','); comma >= 0; comma = current.indexOf(',', comma + 1)) {
    const start = abandonedStart(
      current.map((token) => token.toLowerCase()),
      comma,
    );
    if (start === null) continue;
    current = [...current.slice(0, start), ...current.slice(comma + 1)];
    comma = start;
  }
  return current;
}
