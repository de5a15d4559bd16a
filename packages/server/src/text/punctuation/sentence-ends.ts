/**
 * The sentence ends a run of unpunctuated words most probably holds, by Viterbi search of the
 * hidden-event model over the gaps between words (each gap: no end, "." or "?").
 *
 * The model's counts are few (a few dozen typed visits), and an n-gram it never saw makes the
 * path through a sentence start (whose next words it knows well) look likelier than it is. So an
 * end also needs what the counts do say: a sentence of fewer than three words ends on a word that
 * usually ends one ("okay", "fine", "correct"), no end follows a word that almost never ends one
 * ("the", "and", "my"), and a word said twice, or a subject and its verb, is a restart, never an end
 * and a new sentence.
 */
import {
  QUESTION_END,
  SENTENCE_START,
  shippedPunctuationModel,
  STATEMENT_END,
  tokenId,
  tokenLogProb,
  type HiddenEventModel,
  type SentenceEnd,
} from './hidden-event-model.js';

/** Below this many words, a sentence must end on a word that usually ends one. */
const MIN_SENTENCE_WORDS = 3;

/** The ends chosen so far, newest first: a list shared between paths, so a long run is not copied at each word. */
interface Chosen {
  end: SentenceEnd | null;
  before: Chosen | null;
}

interface Path {
  /** The two tokens before (numbers, -1 for none): all the model reads of what came before. */
  before: number;
  last: number;
  /** Words of the sentence in progress, counted up to MIN_SENTENCE_WORDS. */
  length: number;
  score: number;
  chosen: Chosen | null;
}

/** Whether a sentence may end after this word (lower case): not after "the", "and", "think"… */
export function mayEndAfter(word: string, model: HiddenEventModel = shippedPunctuationModel()): boolean {
  return !model.neverLast.has(word);
}

/**
 * A subject said again with its verb ("you're gonna you're gonna come in", "which is which is good")
 * is a restart too; a repeated noun phrase is not ("listen to your lungs your lungs are clear").
 */
const CLAUSE_SUBJECTS: ReadonlySet<string> = new Set(
  'i you we they he she it that which there this what who'.split(' '),
);
/** Whether the words from `start` are a subject and a word said twice ("it swells it swells"). */
function restartsAt(words: readonly string[], start: number): boolean {
  const subject = words[start];
  return (
    subject !== undefined &&
    CLAUSE_SUBJECTS.has(subject.split("'")[0] ?? '') &&
    words[start + 2] === subject &&
    words[start + 1] === words[start + 3]
  );
}

function mayEnd(model: HiddenEventModel, words: readonly string[], index: number, length: number): boolean {
  const word = words[index] ?? '';
  if (!mayEndAfter(word, model)) return false;
  if (index < words.length - 1 && words[index + 1] === word) return false;
  if ([index, index - 1, index - 2].some((start) => restartsAt(words, start))) return false;
  return length >= MIN_SENTENCE_WORDS || model.usuallyLast.has(word);
}

/** Paths that read the same history alike from here on: only the best of them is kept. */
const stateKey = (path: Path): number => (path.length * 2 ** 18 + path.before + 1) * 2 ** 18 + path.last + 1;

/**
 * For each gap after a word but the last, the sentence end placed there or null; and how the last
 * word's sentence ends. `words` are the recognizer's words in lower case.
 */
export function sentenceEnds(
  words: readonly string[],
  model: HiddenEventModel = shippedPunctuationModel(),
): { ends: (SentenceEnd | null)[]; last: SentenceEnd } {
  if (words.length === 0) return { ends: [], last: '.' };
  const marks: readonly (readonly [SentenceEnd, number])[] = [
    ['.', tokenId(model, STATEMENT_END)],
    ['?', tokenId(model, QUESTION_END)],
  ];
  let paths: Path[] = [{ before: -1, last: tokenId(model, SENTENCE_START), length: 0, score: 0, chosen: null }];
  for (const [index, word] of words.entries()) {
    const isLast = index === words.length - 1;
    const id = tokenId(model, word);
    const best = new Map<number, Path>();
    const keep = (path: Path) => {
      const key = stateKey(path);
      const current = best.get(key);
      if (current === undefined || path.score > current.score) best.set(key, path);
    };
    for (const path of paths) {
      const wordScore = path.score + tokenLogProb(model, path.before, path.last, id);
      const length = Math.min(path.length + 1, MIN_SENTENCE_WORDS);
      if (!isLast)
        keep({ before: path.last, last: id, length, score: wordScore, chosen: { end: null, before: path.chosen } });
      const allowed = mayEnd(model, words, index, length);
      // The text's last word ends a sentence however short: the search only prefers paths that may end there.
      if (!isLast && !allowed) continue;
      const weight = isLast ? (allowed ? 0 : -99) : model.endBonus;
      for (const [end, mark] of marks) {
        const score = wordScore + tokenLogProb(model, path.last, id, mark) + weight;
        keep({ before: id, last: mark, length: 0, score, chosen: { end, before: path.chosen } });
      }
    }
    paths = [...best.values()];
  }
  const winner = paths.reduce((a, b) => (b.score > a.score ? b : a));
  const ends: (SentenceEnd | null)[] = [];
  for (let chosen = winner.chosen; chosen !== null; chosen = chosen.before) ends.push(chosen.end);
  ends.reverse();
  return { ends: ends.slice(0, -1), last: ends.at(-1) ?? '.' };
}
