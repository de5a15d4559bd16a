/**
 * Word-level helpers shared by the extractive engine: tokens that keep punctuation apart (so
 * rewriting can look at words), turning tokens back into prose, and the content words used to
 * compare statements with each other and with section guidance.
 */

/** Words, numbers (1,000, 2.5, 120/80, b.i.d, x-ray, 50-year-old, n't) and single punctuation marks. */
const TOKEN = /\p{N}{1,3}(?:,\p{N}{3})+(?!\p{N})|[\p{L}\p{N}]+(?:['’.\-/][\p{L}\p{N}]+)*[+%]?|[^\s\p{L}\p{N}]/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export const isWord = (token: string): boolean => /[\p{L}\p{N}]/u.test(token);

/** Whether `phrase` (lower-case words) starts at `index` of the lower-cased `tokens`. */
export const phraseAt = (tokens: readonly string[], index: number, phrase: readonly string[]): boolean =>
  phrase.every((word, offset) => tokens[index + offset] === word);

/** Tokens → prose: no space before closing punctuation or after an opening bracket. */
export function detokenize(tokens: readonly string[]): string {
  return tokens
    .join(' ')
    .replace(/ ([,.?!;:%)\]])/g, '$1')
    .replace(/([([]) /g, '$1')
    .replace(/ ([’']) ?(s|t|re|ve|ll|d|m)\b/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Function words: what content comparisons ignore. Pronouns, auxiliaries, determiners and
 * conversational glue, in the spelled-out and the ASR forms (n't, gon, na).
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then so because as of at by for with about against between into through during ' +
    'before after above below to from up down in out on off over under again further once here there when ' +
    'where why how all any both each few more most other some such no nor not only own same than too very ' +
    'can will just should now i me my myself we our ours ourselves you your yours yourself yourselves he him ' +
    'his himself she her hers herself it its itself they them their theirs themselves what which who whom ' +
    'this that these those am is are was were be been being have has had having do does did doing would ' +
    "could might must shall may ought i'm i've i'll i'd you're you've you'll you'd he's she's " +
    "it's we're we've we'll they're they've that's there's what's let's n't not don't doesn't " +
    "didn't isn't wasn't aren't weren't haven't hasn't hadn't won't wouldn't can't cannot " +
    "couldn't shouldn't gon na wan got ta okay ok alright yeah yes yep um uh oh well like know mean " +
    'also really just get got go going gonna wanna want see say said tell told think thing things ' +
    'something anything everything nothing lot bit little kind sort way one ones go went come came ' +
    'make made let take took put back still even actually maybe probably sure right'
  ).split(/\s+/),
);

/** Lower-case word tokens of a text, numbers included. */
export function words(text: string): string[] {
  return tokenize(text.toLowerCase()).filter(isWord);
}

/**
 * A crude stem so "headaches"/"headache", "swelling"/"swollen" are not needed twice in every
 * lexicon: strips common inflections. Only used for matching, never for output.
 */
export function stem(word: string): string {
  const w = word.toLowerCase().replace(/’/g, "'");
  if (w.length <= 3) return w;
  let base = w;
  for (const suffix of ['ies', 'ing', 'ed', 'es', 's', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      base = suffix === 'ies' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
      break;
    }
  }
  // "smoke", "smokes" and "smoking" meet at "smok".
  return base.length >= 4 && base.endsWith('e') ? base.slice(0, -1) : base;
}

/** Stems of the content words of a text. */
export function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}
