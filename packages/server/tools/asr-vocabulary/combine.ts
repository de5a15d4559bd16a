/**
 * Operations on backoff models that keep them normalised: recomputing backoff weights after the
 * explicit n-grams changed, limiting a model to a vocabulary, static linear interpolation of two
 * models (SRILM's `-mix-lm`), and relative-entropy pruning (Stolcke 1998).
 */
import {
  emptyModel,
  LOG_ZERO,
  logProbability,
  packKey,
  SENTENCE_END,
  SENTENCE_START,
  setNgram,
  unpackKey,
  type BackoffModel,
} from './backoff-model.js';

/** Explicit mass below which a context's remaining mass counts as none (quantised models overshoot). */
const EPSILON = 1e-9;

interface ContextMass {
  /** Σ p(w | h) over the words explicit after h. */
  explicit: number;
  /** Σ p(w | h′) over the same words, h′ being h without its first word. */
  lower: number;
}

function contextMasses(model: BackoffModel, order: number): Map<number, ContextMass> {
  const masses = new Map<number, ContextMass>();
  const table = model.tables[order - 1];
  if (table === undefined) return masses;
  for (let row = 0; row < table.keys.length; row++) {
    const ids = unpackKey(table.keys[row] ?? 0, order);
    const word = ids[order - 1] ?? 0;
    const context = packKey(ids.slice(0, -1));
    const mass = masses.get(context) ?? { explicit: 0, lower: 0 };
    mass.explicit += 10 ** (table.logProb[row] ?? LOG_ZERO);
    mass.lower += 10 ** logProbability(model, ids.slice(1, -1), word);
    masses.set(context, mass);
  }
  return masses;
}

function backoffFrom(mass: ContextMass): number {
  const remaining = 1 - mass.explicit;
  const lower = 1 - mass.lower;
  if (lower <= EPSILON) return 0;
  return Math.log10(Math.max(remaining, EPSILON) / lower);
}

/** Sets every context's backoff weight so that each conditional distribution sums to one. */
export function recomputeBackoffs(model: BackoffModel): void {
  for (let order = 2; order <= model.tables.length; order++) {
    const contexts = model.tables[order - 2];
    if (contexts === undefined) continue;
    const masses = contextMasses(model, order);
    for (let row = 0; row < contexts.keys.length; row++) {
      const mass = masses.get(contexts.keys[row] ?? 0);
      contexts.backoff[row] = mass === undefined ? 0 : backoffFrom(mass);
    }
  }
}

/** Scales the unigram probabilities (all but <s>) to sum to one. */
function normaliseUnigrams(model: BackoffModel): void {
  const unigrams = model.tables[0];
  if (unigrams === undefined) return;
  const start = model.wordIds.get(SENTENCE_START);
  let total = 0;
  for (let row = 0; row < unigrams.keys.length; row++) {
    if (unigrams.keys[row] !== start) total += 10 ** (unigrams.logProb[row] ?? LOG_ZERO);
  }
  const shift = Math.log10(total);
  for (let row = 0; row < unigrams.keys.length; row++) {
    unigrams.logProb[row] = unigrams.keys[row] === start ? LOG_ZERO : (unigrams.logProb[row] ?? LOG_ZERO) - shift;
  }
}

/**
 * The model restricted to `keep` (and the sentence markers): n-grams with any other word are
 * dropped, unigrams renormalised, backoff weights recomputed (SRILM's `-limit-vocab -renorm`).
 */
export function limitVocabulary(model: BackoffModel, keep: ReadonlySet<string>): BackoffModel {
  const kept = model.words.filter((word) => keep.has(word) || word === SENTENCE_START || word === SENTENCE_END);
  const limited = emptyModel(kept, model.tables.length);
  const newId = model.words.map((word) => limited.wordIds.get(word));
  model.tables.forEach((table, index) => {
    const target = limited.tables[index];
    if (target === undefined) return;
    for (let row = 0; row < table.keys.length; row++) {
      const ids = unpackKey(table.keys[row] ?? 0, index + 1).map((id) => newId[id]);
      if (ids.some((id) => id === undefined)) continue;
      setNgram(target, packKey(ids as number[]), table.logProb[row] ?? LOG_ZERO, table.backoff[row] ?? 0);
    }
  });
  normaliseUnigrams(limited);
  recomputeBackoffs(limited);
  return limited;
}

/** log10 p(word | history) in `model` for words numbered in another vocabulary. */
function scorer(model: BackoffModel, words: readonly string[]): (ids: readonly number[]) => number {
  const map = words.map((word) => model.wordIds.get(word));
  return (ids) => {
    const word = map[ids[ids.length - 1] ?? 0];
    if (word === undefined) return LOG_ZERO;
    const history: number[] = [];
    // A history word the model does not know cuts the history there: nothing before it counts.
    for (const id of ids.slice(0, -1)) {
      const mapped = map[id];
      if (mapped === undefined) history.length = 0;
      else history.push(mapped);
    }
    return logProbability(model, history, word);
  };
}

/**
 * Static linear interpolation: p(w | h) = λ·pA(w | h) + (1 − λ)·pB(w | h) for every n-gram explicit
 * in either model, each model backing off as it would alone; then backoff weights recomputed. The
 * result is the interpolated model exactly for those n-grams and an approximation for the rest.
 */
export function interpolate(a: BackoffModel, b: BackoffModel, weightA: number): BackoffModel {
  if (weightA < 0 || weightA > 1) throw new RangeError('the interpolation weight must be between 0 and 1');
  const order = Math.max(a.tables.length, b.tables.length);
  const words = [...a.words, ...b.words.filter((word) => !a.wordIds.has(word))];
  const mixed = emptyModel(words, order);
  const scoreA = scorer(a, words);
  const scoreB = scorer(b, words);
  const fromA = a.words.map((word) => mixed.wordIds.get(word) ?? 0);
  const fromB = b.words.map((word) => mixed.wordIds.get(word) ?? 0);
  const start = mixed.wordIds.get(SENTENCE_START);
  for (let n = 1; n <= order; n++) {
    const table = mixed.tables[n - 1];
    if (table === undefined) continue;
    const keys = new Set<number>();
    for (const [source, toMixed] of [
      [a, fromA],
      [b, fromB],
    ] as const) {
      for (const key of source.tables[n - 1]?.keys ?? []) {
        keys.add(packKey(unpackKey(key, n).map((id) => toMixed[id] ?? 0)));
      }
    }
    for (const key of keys) {
      const ids = unpackKey(key, n);
      if (n === 1 && ids[0] === start) {
        setNgram(table, key, LOG_ZERO);
        continue;
      }
      const p = weightA * 10 ** scoreA(ids) + (1 - weightA) * 10 ** scoreB(ids);
      setNgram(table, key, p > 0 ? Math.log10(p) : LOG_ZERO);
    }
  }
  recomputeBackoffs(mixed);
  return mixed;
}

/**
 * Relative-entropy pruning: drops each n-gram (order 2 and up) whose removal changes the model's
 * distribution by less than `threshold` (weighted by its history's probability), keeping any that
 * a surviving higher-order n-gram needs as its context. Highest order first; backoff weights are
 * recomputed afterwards. Returns how many n-grams of each order were removed.
 */
export function prune(model: BackoffModel, threshold: number): number[] {
  const order = model.tables.length;
  const removedPerOrder = Array.from({ length: order }, () => 0);
  const start = model.wordIds.get(SENTENCE_START) ?? 0;
  const end = model.wordIds.get(SENTENCE_END) ?? 0;
  // p(<s> …) histories: a sentence starts as often as one ends.
  const historyLogProb = (history: readonly number[]): number => {
    let total = 0;
    history.forEach((word, i) => {
      total +=
        i === 0 && word === start ? logProbability(model, [], end) : logProbability(model, history.slice(0, i), word);
    });
    return total;
  };
  const neededContexts = new Set<number>();
  for (let n = order; n >= 2; n--) {
    const table = model.tables[n - 1];
    const contexts = model.tables[n - 2];
    if (table === undefined || contexts === undefined) continue;
    const masses = contextMasses(model, n);
    const doomed = new Set<number>();
    for (let row = 0; row < table.keys.length; row++) {
      const key = table.keys[row] ?? 0;
      if (n < order && neededContexts.has(key)) continue;
      const ids = unpackKey(key, n);
      const context = ids.slice(0, -1);
      const word = ids[n - 1] ?? 0;
      const mass = masses.get(packKey(context));
      const contextRow = contexts.rows.get(packKey(context));
      if (mass === undefined || contextRow === undefined) continue;
      const p = 10 ** (table.logProb[row] ?? LOG_ZERO);
      const pLower = 10 ** logProbability(model, ids.slice(1, -1), word);
      const remaining = 1 - mass.explicit;
      const lower = 1 - mass.lower;
      const backoffNow = contexts.backoff[contextRow] ?? 0;
      const backoffAfter = Math.log10((remaining + p) / (lower + pLower));
      // ΔH = −p(h)·[p(w|h)·(log p′(w|h) − log p(w|h)) + Σ_{unseen v} p(v|h)·(log bow′ − log bow)]
      const change =
        -(10 ** historyLogProb(context)) *
        (p * (Math.log10(pLower) + backoffAfter - Math.log10(p)) + remaining * (backoffAfter - backoffNow));
      if (change < threshold) doomed.add(key);
    }
    const survivors = table.keys.filter((key) => !doomed.has(key));
    compact(table, survivors);
    removedPerOrder[n - 1] = doomed.size;
    neededContexts.clear();
    for (const key of survivors) neededContexts.add(packKey(unpackKey(key, n).slice(0, -1)));
  }
  recomputeBackoffs(model);
  return removedPerOrder;
}

function compact(table: BackoffModel['tables'][number], survivors: readonly number[]): void {
  const logProb = survivors.map((key) => table.logProb[table.rows.get(key) ?? 0] ?? LOG_ZERO);
  const backoff = survivors.map((key) => table.backoff[table.rows.get(key) ?? 0] ?? 0);
  table.rows.clear();
  // Element by element: the tables hold millions of entries, too many to spread as arguments.
  table.keys.length = 0;
  table.logProb.length = 0;
  table.backoff.length = 0;
  survivors.forEach((key, row) => {
    table.rows.set(key, row);
    table.keys.push(key);
    table.logProb.push(logProb[row] ?? LOG_ZERO);
    table.backoff.push(backoff[row] ?? 0);
  });
}
