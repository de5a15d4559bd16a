import { applyCorrections, dropRestarts } from './corrections.js';
import { FILLER_PHRASES, isFillerWord, LEADING_MARKERS, TRAILING_MARKERS } from './lexicons.js';
import { digitize } from '../../../text/spoken-numbers.js';
import { detokenize, isWord, phraseAt, tokenize } from './text.js';

/**
 * Speech → clean words: spoken contractions spelled out, disfluencies and fillers dropped, the
 * "okay so …"/"…, right ?" frame removed, stutters collapsed. What is left says the same thing with
 * fewer words; nothing is added except the spelled-out forms of contractions.
 */

/** Contractions written out, in the split ASR form ("do n't", "gon na") and the usual one. */
const EXPANSIONS: readonly (readonly [RegExp, string])[] = [
  [/\bgon ?na\b/gi, 'going to'],
  [/\bwan ?na\b/gi, 'want to'],
  [/\bgot ?ta\b/gi, 'got to'],
  [/\bhaf ?ta\b/gi, 'have to'],
  [/\bca ?n['’]t\b/gi, 'cannot'],
  [/\bwo ?n['’]t\b/gi, 'will not'],
  [/\b(\w+) ?n['’]t\b/gi, '$1 not'],
  // Recognizers and hurried typists drop the apostrophe; these spellings are never other words.
  [/\bcant\b/gi, 'cannot'],
  [/\b(do|does|did|is|are|was|were|have|has|had|could|would|should)nt\b/gi, '$1 not'],
  // Not "IM" (intramuscular), which keeps its capitals, or an injection said in lower case.
  [/\b[Ii]m\b(?! (?:injection|shot|dose|route|into))/g, 'i am'],
  [/\b(i|you|we|they)ve\b/gi, '$1 have'],
  [/\b(you|they)re\b/gi, '$1 are'],
  [/\b(that|what|there)s\b/gi, '$1 is'],
  [
    /\blets (?=(?:just |also |go ahead and )?(?:go|get|start|try|do|see|take|check|increase|decrease|continue|order|schedule|have|make|talk|look|keep|put|switch|stop|plan|repeat|refer|send|give|hold|add|change|bring)\b)/gi,
    "let's ",
  ],
  [
    /\b(i|you|we|they|he|she|it|that|there|who|what)['’]d (been|had|gotten|taken|done|seen|gone|\w+ed)\b/gi,
    '$1 had $2',
  ],
  [/\b(i|you|we|they|he|she|it)['’]d\b/gi, '$1 would'],
  [/\b(i)['’]m\b/gi, '$1 am'],
  [/\b(\w+)['’]re\b/gi, '$1 are'],
  [/\b(\w+)['’]ve\b/gi, '$1 have'],
  [/\b(i|you|we|they|he|she|it|that|there)['’]ll\b/gi, '$1 will'],
  [/\b(it|that|there|he|she|what|who|where)['’]s (been|got|gotten|had)\b/gi, '$1 has $2'],
  [/\b(it|that|there|he|she|what|who|where|here)['’]s\b/gi, '$1 is'],
  [/['’]cause\b/gi, 'because'],
  [/\by['’]all\b/gi, 'you all'],
];

/** The text with its contractions spelled out ("doesn't" → "does not", "can't" → "cannot"). */
export function expandContractions(text: string): string {
  let result = text;
  for (const [pattern, replacement] of EXPANSIONS) result = result.replace(pattern, replacement);
  return result;
}

/**
 * A stutter written with a hyphen: the start of a word, or the word itself, said again ("i-i think",
 * "y-you know", "and-and"). Not a prefix ("re-read", "pre-op"): only a repeat of one or two letters,
 * or of the whole word.
 */
const HYPHENED_STUTTER = /(?<![\p{L}'-])([\p{L}]{1,2}|[\p{L}']+)-(\1[\p{L}']*)/giu;

function unstuttered(text: string): string {
  return text.replace(HYPHENED_STUTTER, (whole, start: string, word: string) => {
    if (start.toLowerCase() === 're' && word.length > 2) return whole;
    return /^\p{Lu}/u.test(start) ? `${word.charAt(0).toUpperCase()}${word.slice(1)}` : word;
  });
}

/**
 * Text-level clean-up before tokenizing: cut-off words ("sh- shows"), ellipses, dashes, then
 * stutters ("it's , it's been" → "it's been", collapsed before contractions are spelled out, since
 * "it's" may become "it is" or "it has"), then contractions.
 */
function preclean(text: string): string {
  const unbroken = unstuttered(text)
    .replace(/(?<=^|\s)[\p{L}]+-(?=\s|$)/gu, ' ')
    .replace(/\.{2,}|…/g, ' , ')
    .replace(/(\d)\s+%/g, '$1%')
    .replace(/\s+-{1,2}\s+|—|–/g, ' , ')
    .replace(/\s+/g, ' ');
  return expandContractions(detokenize(collapseRepeats(tokenize(unbroken))));
}

const lower = (tokens: readonly string[]) => tokens.map((token) => token.toLowerCase());

const FILLER_PHRASE_TOKENS = FILLER_PHRASES.map((phrase) => phrase.split(' '));
const LEADING_TOKENS = LEADING_MARKERS.map((phrase) => phrase.split(' '));
const TRAILING_TOKENS = TRAILING_MARKERS.map((phrase) => phrase.split(' '));

/** Removes filler words and phrases everywhere, and "like" where it is a hedge, not a verb. */
function dropFillers(tokens: readonly string[]): string[] {
  const low = lower(tokens);
  const out: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const word = low[index] ?? '';
    if (isFillerWord(word)) continue;
    const phrase = FILLER_PHRASE_TOKENS.find((candidate) => phraseAt(low, index, candidate));
    // "you know" is a filler, but "do you know" / "you know that" as a question or verb is rare in
    // clinical speech and dropping it loses nothing a note needs.
    if (phrase !== undefined) {
      index += phrase.length - 1;
      continue;
    }
    if (word === 'like' && isHedgeLike(low, index)) continue;
    out.push(tokens[index] ?? '');
  }
  return out;
}

const LIKE_VERB_SUBJECTS = new Set([
  'i',
  'you',
  'we',
  'they',
  'would',
  'to',
  'not',
  'she',
  'he',
  'really',
  'feel',
  'feels',
  'felt',
  'looks',
  'look',
  'looked',
  'sounds',
  'sound',
  'seems',
  'seem',
  'things',
  'something',
  'anything',
  'nothing',
  'more',
  'just',
]);

/** "like" is a hedge unless a subject or a perception verb comes right before it ("I like", "feels like"). */
function isHedgeLike(low: readonly string[], index: number): boolean {
  const previous = low[index - 1];
  if (previous === undefined) return true;
  if (previous === ',') return true;
  if (LIKE_VERB_SUBJECTS.has(previous)) return false;
  // "… like four days", "… like the top number": hedging a quantity or a description.
  return true;
}

/** Strips "okay so", "yeah", "well" … from the front and "…, okay ?" from the end, repeatedly. */
function dropFrame(tokens: readonly string[]): string[] {
  let start = 0;
  let end = tokens.length;
  const low = lower(tokens);
  for (let changed = true; changed;) {
    changed = false;
    while (start < end && !isWord(low[start] ?? '')) {
      start++;
      changed = true;
    }
    const marker = LEADING_TOKENS.find(
      (phrase) => phraseAt(low, start, phrase) && start + phrase.length <= end && !keepsMeaning(low, start, phrase),
    );
    if (marker !== undefined) {
      start += marker.length;
      changed = true;
    }
  }
  for (let changed = true; changed;) {
    changed = false;
    while (end > start && !isWord(low[end - 1] ?? '')) {
      end--;
      changed = true;
    }
    const marker = TRAILING_TOKENS.find(
      (phrase) => end - phrase.length >= start && phraseAt(low, end - phrase.length, phrase),
    );
    if (marker !== undefined && end - marker.length > start) {
      end -= marker.length;
      changed = true;
    }
  }
  return tokens.slice(start, end);
}

/** A leading word that is content here: "good pulses", "well controlled", "right knee", "fine motor". */
function keepsMeaning(low: readonly string[], start: number, phrase: readonly string[]): boolean {
  const word = phrase.join(' ');
  const next = low[start + phrase.length] ?? '';
  if (word === 'right')
    return /^(?:knee|hip|ankle|arm|leg|foot|hand|shoulder|side|eye|ear|elbow|wrist|lower|upper|sided|breast|lung|kidney)$/.test(
      next,
    );
  if (word === 'well') return /^(?:controlled|healed|developed|nourished|appearing)$/.test(next);
  if (word === 'good' || word === 'great' || word === 'fine' || word === 'nice')
    return /^(?:pulses?|range|strength|sensation|capillary|air|breath|movement)$/.test(next);
  if (word === 'then') return false;
  return false;
}

/** "i , i", "the the", "your heart your heart": collapses immediate repeats of 1–6 words. */
function collapseRepeats(tokens: readonly string[]): string[] {
  const out: string[] = [];
  // Lower-case words of `out` and where each sits in it, kept alongside so the check stays linear.
  const seen: string[] = [];
  const at: number[] = [];
  for (const token of tokens) {
    if (!isWord(token)) {
      out.push(token);
      continue;
    }
    out.push(token);
    seen.push(token.toLowerCase());
    at.push(out.length - 1);
    for (let size = 6; size >= 1; size--) {
      const total = seen.length;
      if (total < size * 2) continue;
      let same = true;
      for (let offset = 1; offset <= size && same; offset++)
        same = seen[total - offset] === seen[total - size - offset];
      const word = seen[total - 1] ?? '';
      // "had had", "very very", "so so" and repeated numbers ("four four" is kept for digitizing) are not stutters.
      if (!same || (size === 1 && (word === 'had' || word === 'very' || word === 'so' || /^\d/.test(word)))) continue;
      // Drop the second copy and the punctuation between the copies.
      out.length = at[total - size] ?? out.length;
      seen.length = total - size;
      at.length = total - size;
      while (out.length > 0 && !isWord(out.at(-1) ?? '')) out.pop();
      break;
    }
  }
  return out;
}

/** Collapses runs of punctuation to their first mark and drops a leading one. */
function tidyPunctuation(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const previous = out.at(-1);
    if (!isWord(token) && (previous === undefined || !isWord(previous))) {
      if (previous !== undefined && token !== ',' && previous === ',') out[out.length - 1] = token;
      continue;
    }
    out.push(token);
  }
  return out;
}

/**
 * Words a written phrase never stops after: a comma after one marks where the speaker paused
 * ("she has , uh , decreased range" → "she has, decreased range" once the filler is gone).
 */
const OPENS_A_PHRASE = new Set(
  'a an the another of from with into onto for at about some any every his my your their our its be been very'.split(
    ' ',
  ),
);
/** Verbs that may also end a clause ("where his finger is, my finger …"): a pause only before a phrase's body. */
const AUXILIARY_VERBS = new Set('is was are were has have had'.split(' '));
const POSSESSIVES = new Set('my his her their your our its'.split(' '));
/**
 * A comma before these is where something else begins: a clause ("any , there is a little fluid"),
 * a restarted phrase ("in about , in a couple of days") or an afterthought ("have , really").
 */
const STARTS_SOMETHING_ELSE = new Set(
  (
    'there he she they it i we you in on at of for with from to by about after before ' +
    'really though too either anyway now then again'
  ).split(' '),
);
/** After "no", also an answer's end: "no , the pain is better". */
const STARTS_AFTER_NO = new Set('the this that not'.split(' '));

function isPauseComma(before: string, after: string, first: boolean): boolean {
  if (!isWord(after) || STARTS_SOMETHING_ELSE.has(after)) return false;
  if (before === 'no') return !first && !STARTS_AFTER_NO.has(after);
  if (before === 'am') return after === 'been';
  if (AUXILIARY_VERBS.has(before)) return !POSSESSIVES.has(after);
  return OPENS_A_PHRASE.has(before);
}

/**
 * Drops the pauses written as commas inside a phrase, which split "no , fever" and "there is no ,
 * fracture" in two for every reader (and for the negation's reach), and a restarted auxiliary ("the
 * pain is , has been going away" → "has been"; "he is , been" → "he has been").
 */
function dropPauseCommas(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] ?? '';
    const before = (out.at(-1) ?? '').toLowerCase();
    const after = (tokens[index + 1] ?? '').toLowerCase();
    if (token !== ',' || !isPauseComma(before, after, out.length === 1)) {
      out.push(token);
      continue;
    }
    if (before === 'a' && /^[aeio]/.test(after) && !after.startsWith('one'))
      out[out.length - 1] = `${out.at(-1) ?? 'a'}n`;
    if (!AUXILIARY_VERBS.has(before) && before !== 'am') continue;
    if (AUXILIARY_VERBS.has(after)) out.pop();
    else if (after === 'been' && !before.startsWith('ha'))
      out[out.length - 1] = /^(?:is|was)$/.test(before) ? 'has' : 'have';
  }
  return out;
}

/**
 * Speech as said, for reading answers: lower case, contractions spelled out, numbers as digits,
 * but fillers and "okay"/"yeah" kept ("mm-hmm" is a yes).
 */
export function spokenForm(text: string): string {
  return digitize(tokenize(preclean(text)))
    .join(' ')
    .toLowerCase();
}

/** One spoken sentence or clause → its cleaned tokens (possibly none). */
export function cleanSpeech(text: string): string[] {
  const tokens = tokenize(preclean(text));
  return dropPauseCommas(
    tidyPunctuation(dropFrame(collapseRepeats(dropRestarts(applyCorrections(dropFillers(dropFrame(tokens))))))),
  );
}
