/**
 * Builds models/text/punctuation.json, the hidden-event model that places sentence ends in
 * recognizer text, from the ACI-Bench train split's punctuated dialogues: each turn in the
 * recognizer's spoken form with a token for each sentence end, counted as a Kneser-Ney trigram
 * model. Deterministic: the same split gives the same bytes.
 */
import { readFileSync } from 'node:fs';

import {
  hiddenEventModel,
  QUESTION_END,
  STATEMENT_END,
  UNKNOWN_WORD,
  type HiddenEventModelFile,
} from '@chartwright/server/internal/text/punctuation/hidden-event-model.js';
import { sentenceEnds } from '@chartwright/server/internal/text/punctuation/sentence-ends.js';
import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';

import { estimateKneserNey } from '../asr-vocabulary/kneser-ney.js';
import { unpackKey, type BackoffModel } from '../asr-vocabulary/backoff-model.js';
import { spokenWords } from '../speech/spoken-form.js';

const ORDER = 3;
/** Dialogues typed with fewer sentence marks than this per word were transcribed without punctuation. */
const MIN_MARKS_PER_WORD = 0.03;
/** Words counted fewer times than this are read as UNKNOWN_WORD, so the model knows how such words behave. */
const MIN_WORD_COUNT = 2;
/** A word counted this often that ended under this share of its sentences is never last (see HiddenEventModelFile). */
const NEVER_LAST = { minCount: 20, maxEndShare: 0.01 };
/** A word counted this often that ended at least this share of its sentences may end a short one. */
const USUALLY_LAST = { minCount: 10, minEndShare: 0.5 };
/** Every n-th punctuated dialogue is held out to choose the end bonus. */
const HOLD_OUT_EVERY = 5;
const BONUS_GRID = Array.from({ length: 17 }, (_, step) => -2 + step * 0.25);

const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/** A turn as tokens: its words in spoken form, each sentence followed by its end. */
export type TokenTurn = string[];

export function punctuatedDialogues(trainPath: string): string[] {
  return readFileSync(trainPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { dialogue: string }).dialogue)
    .filter((dialogue) => (dialogue.match(/[.?!]/g) ?? []).length / dialogue.split(/\s+/).length >= MIN_MARKS_PER_WORD);
}

/** A dialogue's turns as tokens, its sentences as typed (not as this very model would place them). */
export function tokenTurns(dialogue: string): TokenTurn[] {
  return parseConversation(dialogue, { asTyped: true }).turns.map((turn) =>
    turn.sentences.flatMap((sentence) => {
      const words = spokenWords(sentence.text);
      if (words.length === 0) return [];
      return [...words, sentence.text.trim().endsWith('?') ? QUESTION_END : STATEMENT_END];
    }),
  );
}

function withUnknownWords(turns: readonly TokenTurn[]): TokenTurn[] {
  const counts = new Map<string, number>();
  for (const turn of turns) for (const token of turn) counts.set(token, (counts.get(token) ?? 0) + 1);
  return turns.map((turn) => turn.map((token) => ((counts.get(token) ?? 0) >= MIN_WORD_COUNT ? token : UNKNOWN_WORD)));
}

interface WordEnds {
  said: number;
  last: number;
}

/** How often each word was said, and how often it ended its sentence. */
function wordEnds(turns: readonly TokenTurn[]): Map<string, WordEnds> {
  const counts = new Map<string, WordEnds>();
  for (const turn of turns) {
    for (const [index, token] of turn.entries()) {
      if (token.startsWith('<')) continue;
      const count = counts.get(token) ?? { said: 0, last: 0 };
      count.said++;
      const next = turn[index + 1];
      if (next === STATEMENT_END || next === QUESTION_END) count.last++;
      counts.set(token, count);
    }
  }
  return counts;
}

function wordsWhere(counts: Map<string, WordEnds>, keep: (count: WordEnds) => boolean): string[] {
  return [...counts]
    .filter(([, count]) => keep(count))
    .map(([word]) => word)
    .sort();
}

const neverLast = (counts: Map<string, WordEnds>) =>
  wordsWhere(counts, ({ said, last }) => said >= NEVER_LAST.minCount && last / said < NEVER_LAST.maxEndShare);
const usuallyLast = (counts: Map<string, WordEnds>) =>
  wordsWhere(counts, ({ said, last }) => said >= USUALLY_LAST.minCount && last / said >= USUALLY_LAST.minEndShare);

function modelFile(
  model: BackoffModel,
  turns: readonly TokenTurn[],
  trainedOn: HiddenEventModelFile['trainedOn'],
  endBonus: number,
): HiddenEventModelFile {
  const ngrams: HiddenEventModelFile['ngrams'] = {};
  for (const [index, table] of model.tables.entries()) {
    const entries = table.keys.map((key, row) => ({
      ngram: unpackKey(key, index + 1)
        .map((id) => model.words[id] ?? '')
        .join(' '),
      logProb: round(table.logProb[row] ?? -99),
      backoff: round(table.backoff[row] ?? 0),
    }));
    entries.sort((a, b) => (a.ngram < b.ngram ? -1 : a.ngram > b.ngram ? 1 : 0));
    for (const { ngram, logProb, backoff } of entries) ngrams[ngram] = backoff === 0 ? [logProb] : [logProb, backoff];
  }
  const counts = wordEnds(turns);
  return { trainedOn, order: ORDER, endBonus, neverLast: neverLast(counts), usuallyLast: usuallyLast(counts), ngrams };
}

export interface EndScore {
  precision: number;
  recall: number;
  f1: number;
}

/** How well a model places sentence ends in turns it did not see, over the gaps between words. */
export function endScore(file: HiddenEventModelFile, turns: readonly TokenTurn[]): EndScore {
  const model = hiddenEventModel(file);
  let right = 0;
  let placed = 0;
  let said = 0;
  for (const turn of turns) {
    const words = turn.filter((token) => token !== STATEMENT_END && token !== QUESTION_END);
    const truth = turn.flatMap((token, index) =>
      token === STATEMENT_END || token === QUESTION_END
        ? []
        : [turn[index + 1] === STATEMENT_END || turn[index + 1] === QUESTION_END],
    );
    const { ends } = sentenceEnds(words, model);
    for (const [gap, end] of ends.entries()) {
      if (end !== null) placed++;
      if (truth[gap] === true) said++;
      if (end !== null && truth[gap] === true) right++;
    }
  }
  const precision = placed === 0 ? 0 : right / placed;
  const recall = said === 0 ? 0 : right / said;
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** The bonus of the grid with the best F1 on the held-out turns. */
function bestBonus(trial: (bonus: number) => HiddenEventModelFile, heldOut: readonly TokenTurn[]): number {
  let best = { bonus: 0, f: -1 };
  for (const bonus of BONUS_GRID) {
    const f = endScore(trial(bonus), heldOut).f1;
    if (f > best.f) best = { bonus, f };
  }
  return best.bonus;
}

function countWords(turns: readonly TokenTurn[]): number {
  return turns.reduce((total, turn) => total + turn.filter((token) => !token.startsWith('<')).length, 0);
}

export function buildPunctuationModel(trainPath: string): HiddenEventModelFile {
  const dialogues = punctuatedDialogues(trainPath);
  const isHeldOut = (index: number) => index % HOLD_OUT_EVERY === HOLD_OUT_EVERY - 1;
  const train = dialogues.filter((_, index) => !isHeldOut(index)).flatMap(tokenTurns);
  const heldOut = dialogues.filter((_, index) => isHeldOut(index)).flatMap(tokenTurns);
  const trialModel = estimateKneserNey(withUnknownWords(train), ORDER);
  const trial = (bonus: number) => modelFile(trialModel, train, { dialogues: 0, words: 0 }, bonus);
  const endBonus = bestBonus(trial, heldOut);
  const all = dialogues.flatMap(tokenTurns);
  return modelFile(
    estimateKneserNey(withUnknownWords(all), ORDER),
    all,
    { dialogues: dialogues.length, words: countWords(all) },
    endBonus,
  );
}

/** The file's bytes: one n-gram per line, so a rebuild's diff reads n-gram by n-gram. */
export function formatPunctuationModel(model: HiddenEventModelFile): string {
  const { ngrams, ...rest } = model;
  const lines = Object.entries(ngrams).map(
    ([ngram, values]) => `    ${JSON.stringify(ngram)}: ${JSON.stringify(values)}`,
  );
  const head = JSON.stringify(rest, null, 2).replace(/\n}$/, '');
  return `${head},\n  "ngrams": {\n${lines.join(',\n')}\n  }\n}\n`;
}
