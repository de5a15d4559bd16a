/**
 * Interpolated modified Kneser-Ney estimation (Chen & Goodman 1998) of a closed-vocabulary n-gram
 * model from sentences, written in backoff form: an explicit n-gram carries its interpolated
 * probability and a context its interpolation weight as the backoff weight. Lower orders use
 * continuation counts (how many distinct words precede), except n-grams starting with <s>, which
 * nothing can precede and which keep their raw counts. The lowest order interpolates with the
 * uniform distribution over the vocabulary.
 */
import {
  emptyModel,
  LOG_ZERO,
  MAX_ORDER,
  packKey,
  SENTENCE_END,
  SENTENCE_START,
  setNgram,
  unpackKey,
  type BackoffModel,
} from './backoff-model.js';

type Counts = Map<number, number>;

export interface Discounts {
  /** Subtracted from counts of 1, 2, and 3 or more. */
  one: number;
  two: number;
  threePlus: number;
}

/** Chen & Goodman's estimates from counts-of-counts, clamped to the range each must lie in. */
export function discountsFrom(counts: Iterable<number>): Discounts {
  const n = [0, 0, 0, 0, 0];
  for (const count of counts) if (count <= 4) n[count] = (n[count] ?? 0) + 1;
  const [, n1 = 0, n2 = 0, n3 = 0, n4 = 0] = n;
  // Tiny corpora can lack some count-of-counts; fall back to a plain 0.5/1/1.5 discount then.
  if (n1 === 0 || n2 === 0 || n3 === 0 || n4 === 0) return { one: 0.5, two: 1, threePlus: 1.5 };
  const y = n1 / (n1 + 2 * n2);
  const clamp = (value: number, max: number): number => Math.min(max, Math.max(0.05, value));
  return {
    one: clamp(1 - (2 * y * n2) / n1, 1),
    two: clamp(2 - (3 * y * n3) / n2, 2),
    threePlus: clamp(3 - (4 * y * n4) / n3, 3),
  };
}

function discount(discounts: Discounts, count: number): number {
  if (count >= 3) return discounts.threePlus;
  return count === 2 ? discounts.two : discounts.one;
}

function increment(counts: Counts, key: number, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

/** Drops the first word of a packed n-gram of `order` words. */
function suffixKey(key: number, order: number): number {
  return packKey(unpackKey(key, order).slice(1));
}

function contextKey(key: number, order: number): number {
  return packKey(unpackKey(key, order).slice(0, -1));
}

export function estimateKneserNey(sentences: Iterable<readonly string[]>, order = MAX_ORDER): BackoffModel {
  const vocabulary = new Set<string>();
  const padded: string[][] = [];
  for (const sentence of sentences) {
    if (sentence.length === 0) continue;
    for (const word of sentence) vocabulary.add(word);
    padded.push([SENTENCE_START, ...sentence, SENTENCE_END]);
  }
  vocabulary.delete(SENTENCE_START);
  vocabulary.delete(SENTENCE_END);
  const model = emptyModel([SENTENCE_START, SENTENCE_END, ...[...vocabulary].sort()], order);
  const id = (word: string): number => model.wordIds.get(word) ?? 0;
  const start = id(SENTENCE_START);

  // Adjusted counts per order: raw at the top order and for n-grams starting with <s>.
  const adjusted: Counts[] = Array.from({ length: order }, () => new Map<number, number>());
  for (const sentence of padded) {
    const ids = sentence.map(id);
    for (let end = 1; end < ids.length; end++) {
      const first = Math.max(0, end - order + 1);
      // Near the start the n-gram is shorter than the order and begins with <s>: a raw count too.
      const table = adjusted[end - first];
      if (table !== undefined) increment(table, packKey(ids.slice(first, end + 1)));
    }
  }
  for (let n = order - 1; n >= 1; n--) {
    const lower = adjusted[n - 1];
    const higher = adjusted[n];
    if (lower === undefined || higher === undefined) continue;
    // Each distinct (n+1)-gram is one distinct left context of its suffix. Suffixes never start
    // with <s>, so they never collide with the raw-counted n-grams that do.
    for (const key of higher.keys()) increment(lower, suffixKey(key, n + 1));
  }

  const vocabularySize = model.words.length - 1; // every word but <s> can be predicted
  for (let n = 1; n <= order; n++) {
    const counts = adjusted[n - 1] ?? new Map<number, number>();
    const discounts = discountsFrom(counts.values());
    // Per context: the sum of counts, and how much discounting frees for the lower order.
    const totals = new Map<number, number>();
    const freed = new Map<number, number>();
    for (const [key, count] of counts) {
      const context = n === 1 ? 0 : contextKey(key, n);
      increment(totals, context, count);
      increment(freed, context, discount(discounts, count));
    }
    const table = model.tables[n - 1];
    if (table === undefined) continue;
    for (const [key, count] of counts) {
      const context = n === 1 ? 0 : contextKey(key, n);
      const total = totals.get(context) ?? 1;
      const gamma = (freed.get(context) ?? 0) / total;
      const lower = n === 1 ? 1 / vocabularySize : 10 ** lowerLogProb(model, key, n);
      const probability = (count - discount(discounts, count)) / total + gamma * lower;
      setNgram(table, key, Math.log10(probability));
    }
    if (n === 1) {
      // <s> is a context only; any word no bigram ends with would still get the uniform share.
      const total = totals.get(0) ?? 1;
      const gamma = (freed.get(0) ?? 0) / total;
      for (let word = 0; word < model.words.length; word++) {
        if (word === start) setNgram(table, word, LOG_ZERO);
        else if (!table.rows.has(word)) setNgram(table, word, Math.log10(gamma / vocabularySize));
      }
    }
    // The interpolation weight of each context is its backoff weight, one order down.
    const contexts = model.tables[n - 2];
    if (contexts === undefined) continue;
    for (const [context, total] of totals) {
      const row = contexts.rows.get(context);
      if (row !== undefined) contexts.backoff[row] = Math.log10((freed.get(context) ?? 0) / total);
    }
  }
  return model;
}

/** log10 p of an n-gram's suffix: explicit, since every suffix of a seen n-gram was seen. */
function lowerLogProb(model: BackoffModel, key: number, order: number): number {
  const table = model.tables[order - 2];
  const row = table?.rows.get(suffixKey(key, order));
  if (table === undefined || row === undefined) throw new Error('a suffix of a seen n-gram is missing');
  return table.logProb[row] ?? LOG_ZERO;
}
