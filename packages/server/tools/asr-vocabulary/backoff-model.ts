/**
 * An n-gram backoff language model in memory, as an ARPA file describes one: per order, the
 * explicit n-grams with their log10 probability and (below the top order) log10 backoff weight.
 * Words are numbered; an n-gram is packed into one number (17 bits per word), so tables are plain
 * Maps keyed by numbers even for the stock model's millions of n-grams.
 */

export const SENTENCE_START = '<s>';
export const SENTENCE_END = '</s>';

const WORD_BITS = 2 ** 17;
/** Packing keeps trigram keys under 2^51, inside a double's exact integer range. */
export const MAX_VOCABULARY = WORD_BITS;
export const MAX_ORDER = 3;

/** log10 of the probability 0, as ARPA files write it. */
export const LOG_ZERO = -99;

export interface NgramTable {
  /** Packed key → row. */
  readonly rows: Map<number, number>;
  readonly keys: number[];
  readonly logProb: number[];
  /** 0 (log 1) when the n-gram is never a context, and always at the top order. */
  readonly backoff: number[];
}

export interface BackoffModel {
  readonly words: string[];
  readonly wordIds: Map<string, number>;
  /** `tables[0]` holds unigrams, `tables[1]` bigrams, … */
  readonly tables: NgramTable[];
}

export function packKey(ids: readonly number[]): number {
  let key = 0;
  for (const id of ids) key = key * WORD_BITS + id;
  return key;
}

export function unpackKey(key: number, order: number): number[] {
  const ids = new Array<number>(order);
  let rest = key;
  for (let i = order - 1; i >= 0; i--) {
    ids[i] = rest % WORD_BITS;
    rest = Math.floor(rest / WORD_BITS);
  }
  return ids;
}

export function emptyTable(): NgramTable {
  return { rows: new Map(), keys: [], logProb: [], backoff: [] };
}

export function emptyModel(words: readonly string[], order: number): BackoffModel {
  if (words.length > MAX_VOCABULARY) throw new RangeError(`at most ${MAX_VOCABULARY} words fit the key packing`);
  if (order < 1 || order > MAX_ORDER) throw new RangeError(`order must be 1 to ${MAX_ORDER}`);
  return {
    words: [...words],
    wordIds: new Map(words.map((word, id) => [word, id])),
    tables: Array.from({ length: order }, emptyTable),
  };
}

export function setNgram(table: NgramTable, key: number, logProb: number, backoff = 0): void {
  const row = table.rows.get(key);
  if (row === undefined) {
    table.rows.set(key, table.keys.length);
    table.keys.push(key);
    table.logProb.push(logProb);
    table.backoff.push(backoff);
  } else {
    table.logProb[row] = logProb;
    table.backoff[row] = backoff;
  }
}

/** The backoff weight of a context (log10), 0 when the context is not in the model. */
export function contextBackoff(model: BackoffModel, context: readonly number[]): number {
  if (context.length === 0) return 0;
  const table = model.tables[context.length - 1];
  const row = table?.rows.get(packKey(context));
  return row === undefined ? 0 : (table?.backoff[row] ?? 0);
}

/**
 * log10 p(word | history), backing off through shorter histories. A history longer than the
 * model's order is cut to its most recent words. A word outside the model scores LOG_ZERO.
 */
export function logProbability(model: BackoffModel, history: readonly number[], word: number): number {
  const usable = history.slice(Math.max(0, history.length - (model.tables.length - 1)));
  let penalty = 0;
  for (let start = 0; start <= usable.length; start++) {
    const context = usable.slice(start);
    const table = model.tables[context.length];
    const row = table?.rows.get(packKey([...context, word]));
    if (row !== undefined) return penalty + (table?.logProb[row] ?? LOG_ZERO);
    penalty += contextBackoff(model, context);
  }
  return LOG_ZERO;
}

export function ngramCount(model: BackoffModel): number[] {
  return model.tables.map((table) => table.keys.length);
}
