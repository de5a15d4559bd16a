/**
 * ROUGE as the ACI-Bench paper computed it: Google's `rouge_score` package through Hugging Face
 * `evaluate` with its defaults, i.e. the default tokenizer without stemming, F1 per note (the
 * mean over notes is the caller's job). Written from the definitions in the ROUGE paper (Lin,
 * 2004) and the behaviour of `rouge_score`; the comments say where that package's choices matter.
 */

/** Precision, recall and F1 of one prediction against one reference. */
export interface RougeScore {
  precision: number;
  recall: number;
  f1: number;
}

export type RougeType = 'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum';

export const ROUGE_TYPES: readonly RougeType[] = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'];

export type RougeScores = Record<RougeType, RougeScore>;

const ZERO: RougeScore = Object.freeze({ precision: 0, recall: 0, f1: 0 });

/**
 * The default `rouge_score` tokenizer without a stemmer: lower-case, every character outside
 * a–z and 0–9 becomes a separator, and the tokens are the runs left. So "I'm 2.5mg B.I.D."
 * gives i, m, 2, 5mg, b, i, d; accented letters are separators too, as in the original.
 */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** The harmonic mean, 0 when both are 0 (computed in the same order as rouge_score, so bit-identical). */
function score(precision: number, recall: number): RougeScore {
  return { precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}

function countNgrams(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let start = 0; start + n <= tokens.length; start++) {
    // Tokens never contain a space, so joining with one is an unambiguous key.
    const key = tokens.slice(start, start + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * ROUGE-N on token lists: the clipped n-gram overlap over the prediction's n-grams (precision) and
 * the reference's (recall). As in rouge_score, a side with no n-grams divides by 1, so an empty
 * prediction or reference scores 0 rather than failing.
 */
export function rougeNTokens(reference: readonly string[], prediction: readonly string[], n: number): RougeScore {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`ROUGE-N needs a positive whole n, got ${n}`);
  const referenceCounts = countNgrams(reference, n);
  const predictionCounts = countNgrams(prediction, n);
  let overlap = 0;
  for (const [ngram, count] of referenceCounts) overlap += Math.min(count, predictionCounts.get(ngram) ?? 0);
  const referenceTotal = Math.max(0, reference.length - n + 1);
  const predictionTotal = Math.max(0, prediction.length - n + 1);
  return score(overlap / Math.max(predictionTotal, 1), overlap / Math.max(referenceTotal, 1));
}

/** Length of the longest common subsequence, in O(min) memory. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let previous = new Uint32Array(short.length + 1);
  let current = new Uint32Array(short.length + 1);
  for (const token of long) {
    for (let j = 1; j <= short.length; j++) {
      current[j] =
        token === short[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length] ?? 0;
}

/** ROUGE-L on token lists: LCS over the whole sequences; 0 when either side is empty. */
export function rougeLTokens(reference: readonly string[], prediction: readonly string[]): RougeScore {
  if (reference.length === 0 || prediction.length === 0) return ZERO;
  const lcs = lcsLength(reference, prediction);
  return score(lcs / prediction.length, lcs / reference.length);
}

/**
 * The reference positions of one longest common subsequence of `reference` and `candidate`, in
 * order. Which of several equally long subsequences is returned changes the union-LCS below, so
 * this reads the table back the way rouge_score does: from the end, taking a match when the
 * tokens are equal, otherwise stepping back in the candidate only when that keeps a strictly
 * longer prefix LCS, else stepping back in the reference.
 */
export function lcsReferenceIndexes(reference: readonly string[], candidate: readonly string[]): number[] {
  const rows = reference.length;
  const cols = candidate.length;
  const width = cols + 1;
  // table[i * width + j] = LCS length of reference[0, i) and candidate[0, j).
  const table = new Uint32Array((rows + 1) * width);
  for (let i = 1; i <= rows; i++) {
    const token = reference[i - 1];
    for (let j = 1; j <= cols; j++) {
      table[i * width + j] =
        token === candidate[j - 1]
          ? (table[(i - 1) * width + j - 1] ?? 0) + 1
          : Math.max(table[(i - 1) * width + j] ?? 0, table[i * width + j - 1] ?? 0);
    }
  }
  const indexes: number[] = [];
  let i = rows;
  let j = cols;
  while (i > 0 && j > 0) {
    if (reference[i - 1] === candidate[j - 1]) {
      indexes.push(i - 1);
      i--;
      j--;
    } else if ((table[i * width + j - 1] ?? 0) > (table[(i - 1) * width + j] ?? 0)) {
      j--;
    } else {
      i--;
    }
  }
  return indexes.reverse();
}

/**
 * The union LCS of one reference sentence with every candidate sentence (ROUGE paper, 3.2): the
 * reference tokens at the union of the positions each sentence-pair LCS covers, in reference order.
 */
export function unionLcs(
  referenceSentence: readonly string[],
  candidateSentences: readonly (readonly string[])[],
): string[] {
  const positions = new Set<number>();
  for (const candidate of candidateSentences) {
    for (const index of lcsReferenceIndexes(referenceSentence, candidate)) positions.add(index);
  }
  return [...positions].sort((a, b) => a - b).flatMap((index) => referenceSentence[index] ?? []);
}

/**
 * Summary-level ROUGE-L on tokenized sentences. Hits are the union-LCS tokens of each reference
 * sentence, but a token only counts while both texts still have an unused occurrence of it (ROUGE
 * 1.5.5 and rouge_score do this to avoid counting one candidate word for many reference sentences).
 */
export function rougeLsumSentences(
  referenceSentences: readonly (readonly string[])[],
  candidateSentences: readonly (readonly string[])[],
): RougeScore {
  const referenceLength = referenceSentences.reduce((sum, sentence) => sum + sentence.length, 0);
  const candidateLength = candidateSentences.reduce((sum, sentence) => sum + sentence.length, 0);
  if (referenceLength === 0 || candidateLength === 0) return ZERO;
  const referenceLeft = tally(referenceSentences);
  const candidateLeft = tally(candidateSentences);
  let hits = 0;
  for (const sentence of referenceSentences) {
    for (const token of unionLcs(sentence, candidateSentences)) {
      const inReference = referenceLeft.get(token) ?? 0;
      const inCandidate = candidateLeft.get(token) ?? 0;
      if (inReference > 0 && inCandidate > 0) {
        hits++;
        referenceLeft.set(token, inReference - 1);
        candidateLeft.set(token, inCandidate - 1);
      }
    }
  }
  return score(hits / candidateLength, hits / referenceLength);
}

function tally(sentences: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sentence of sentences) for (const token of sentence) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/**
 * The "sentences" ROUGE-Lsum uses with rouge_score's defaults: the lines of the text, split on
 * "\n" only, empty lines dropped, each tokenized on its own (a line of only punctuation or spaces
 * stays as an empty sentence, which changes nothing).
 */
export function lsumSentences(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map(tokenize);
}

export function rouge1(reference: string, prediction: string): RougeScore {
  return rougeNTokens(tokenize(reference), tokenize(prediction), 1);
}

export function rouge2(reference: string, prediction: string): RougeScore {
  return rougeNTokens(tokenize(reference), tokenize(prediction), 2);
}

export function rougeL(reference: string, prediction: string): RougeScore {
  return rougeLTokens(tokenize(reference), tokenize(prediction));
}

export function rougeLsum(reference: string, prediction: string): RougeScore {
  return rougeLsumSentences(lsumSentences(reference), lsumSentences(prediction));
}

/** All four scores of one prediction against one reference, tokenizing each text once. */
export function rougeScores(reference: string, prediction: string): RougeScores {
  const referenceTokens = tokenize(reference);
  const predictionTokens = tokenize(prediction);
  return {
    rouge1: rougeNTokens(referenceTokens, predictionTokens, 1),
    rouge2: rougeNTokens(referenceTokens, predictionTokens, 2),
    rougeL: rougeLTokens(referenceTokens, predictionTokens),
    rougeLsum: rougeLsum(reference, prediction),
  };
}
