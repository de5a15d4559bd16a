/**
 * Where sentences end in a run of recognized words (lower case, no punctuation): a hidden-event
 * n-gram model (Stolcke & Shriberg 1996). The words and the sentence ends between them ("." and
 * "?") were counted as one token stream in typed visit dialogue; the most probable placement of
 * ends among the words is found by Viterbi search over the gaps. The model is
 * models/text/punctuation.json, built by `npm run build:punctuation-model` from the ACI-Bench
 * train split's punctuated dialogues (statistics only; see models/manifest.json).
 */
import { readFileSync } from 'node:fs';

import { modelPath } from '../../model-files.js';

export const SENTENCE_START = '<s>';
export const STATEMENT_END = '<.>';
export const QUESTION_END = '<?>';
/** What a word the model never counted (or counted once) is read as. */
export const UNKNOWN_WORD = '<unk>';

export type SentenceEnd = '.' | '?';

/** The file's shape. Log10 probabilities; n-grams of one to `order` tokens joined by spaces. */
export interface HiddenEventModelFile {
  /** What it was counted from: punctuated dialogues and their words (statistics, not text). */
  trainedOn: { dialogues: number; words: number };
  /** At most 3. */
  order: number;
  /**
   * Log10 added for each sentence end placed inside the text: the balance of missed ends against
   * false ones, chosen for the best F1 on held-out train dialogues.
   */
  endBonus: number;
  /**
   * Words after which no sentence is ended (counted often, almost never last: "the", "and", "my"):
   * the counts are too few to keep every such n-gram away from an end.
   */
  neverLast: string[];
  /** Words that end most of the sentences they are in ("okay", "fine", "correct"): a sentence of one or two words may end on them. */
  usuallyLast: string[];
  /** n-gram → [log10 p, log10 backoff] (the backoff left out when 0). */
  ngrams: Record<string, [number] | [number, number]>;
}

export const PUNCTUATION_MODEL_FILE = modelPath('text', 'punctuation.json');

/** Tokens are numbered and an n-gram of up to three packed into one number, so a lookup builds no string. */
const TOKEN_BITS = 2 ** 17;
const MAX_ORDER = 3;

/** The loaded model: n-gram lookups by packed key (a word such as "constructor" is no prototype key either). */
export interface HiddenEventModel {
  endBonus: number;
  neverLast: ReadonlySet<string>;
  usuallyLast: ReadonlySet<string>;
  /** Token → number: every token the file has a unigram for. */
  ids: ReadonlyMap<string, number>;
  logProb: ReadonlyMap<number, number>;
  backoff: ReadonlyMap<number, number>;
}

/** The n-gram's key; ids count from 1 so that n-grams of different lengths never share one. */
const keyOf = (ids: readonly number[]): number => ids.reduce((key, id) => key * TOKEN_BITS + id + 1, 0);

export function hiddenEventModel(file: HiddenEventModelFile): HiddenEventModel {
  if (file.order > MAX_ORDER) throw new RangeError(`the punctuation model must be of order ${MAX_ORDER} at most`);
  const entries = Object.entries(file.ngrams);
  const ids = new Map<string, number>();
  for (const [ngram] of entries) if (!ngram.includes(' ')) ids.set(ngram, ids.size);
  if (ids.size >= TOKEN_BITS) throw new RangeError(`the punctuation model must have under ${TOKEN_BITS} tokens`);
  const logProb = new Map<number, number>();
  const backoff = new Map<number, number>();
  for (const [ngram, [probability, weight]] of entries) {
    const key = keyOf(ngram.split(' ').map((token) => ids.get(token) ?? -1));
    logProb.set(key, probability);
    if (weight !== undefined) backoff.set(key, weight);
  }
  return {
    endBonus: file.endBonus,
    neverLast: new Set(file.neverLast),
    usuallyLast: new Set(file.usuallyLast),
    ids,
    logProb,
    backoff,
  };
}

let shipped: HiddenEventModel | undefined;

/** The shipped model, read on first use (a service that never shows recognizer text never reads it). */
export function shippedPunctuationModel(): HiddenEventModel {
  shipped ??= hiddenEventModel(JSON.parse(readFileSync(PUNCTUATION_MODEL_FILE, 'utf8')) as HiddenEventModelFile);
  return shipped;
}

/** The token's number; a word the model never counted is UNKNOWN_WORD. */
export function tokenId(model: HiddenEventModel, token: string): number {
  return model.ids.get(token) ?? model.ids.get(UNKNOWN_WORD) ?? -1;
}

/**
 * log10 p(token | the two tokens before it), backing off to shorter histories. `before` and
 * `last` are token numbers, -1 where the history is shorter.
 */
export function tokenLogProb(model: HiddenEventModel, before: number, last: number, token: number): number {
  let penalty = 0;
  if (before >= 0 && last >= 0) {
    const found = model.logProb.get(keyOf([before, last, token]));
    if (found !== undefined) return found;
    penalty += model.backoff.get(keyOf([before, last])) ?? 0;
  }
  if (last >= 0) {
    const found = model.logProb.get(keyOf([last, token]));
    if (found !== undefined) return penalty + found;
    penalty += model.backoff.get(keyOf([last])) ?? 0;
  }
  return penalty + (model.logProb.get(keyOf([token])) ?? -99);
}
