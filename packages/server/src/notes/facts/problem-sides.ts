/**
 * The side of a problem the patient gives after it was told: an answer to "which side?" ("no, the
 * other one"), or a correction of the side someone said ("it's not the right knee, it's the left").
 */
import { answerOf } from './answers.js';
import { sideCorrection, sideIn, withSideCorrected } from './attributes.js';
import { turnsSource, type DraftOf } from './draft.js';
import type { Exchange } from './exchanges.js';
import type { Utterance } from './utterances.js';

type ProblemDraft = DraftOf<'problem'>;

/** "Is that the left hand?" "No, the other one. My right.": the side of the problem just told. */
const SIDE_ASKED =
  /\b(?:which (?:side|one|hand|foot|knee|leg|arm|ear|eye)|(?:left|right) or (?:left|right)|is (?:it|that|this) (?:the|your|on the) (?:left|right))\b/;
const OTHER_SIDE = /\b(?:the other (?:one|side)|the opposite)\b/;
const SIDE_REACH = 3;

function sideAnswered(exchange: Exchange): ProblemDraft['laterality'] {
  const { question } = exchange;
  if (!SIDE_ASKED.test(question.text)) return undefined;
  const answer = exchange.spoken.join(' ').toLowerCase();
  const said = sideIn(answer);
  if (said !== undefined) return said;
  const asked = sideIn(question.text);
  if (asked !== 'left' && asked !== 'right') return undefined;
  if (OTHER_SIDE.test(answer)) return asked === 'left' ? 'right' : 'left';
  return answerOf(exchange.spoken, exchange.form).polarity === 'present' ? asked : undefined;
}

/** The side an answer gives goes to the located problem the patient told just before. */
export function withSidesAnswered(problems: readonly ProblemDraft[], exchanges: readonly Exchange[]): ProblemDraft[] {
  const sided = [...problems];
  for (const exchange of exchanges) {
    const side = sideAnswered(exchange);
    if (side === undefined) continue;
    const turn = exchange.question.turn;
    const index = sided.findLastIndex(
      (problem) =>
        problem.polarity === 'present' &&
        problem.location !== undefined &&
        problem.source.turns.some((told) => told <= turn && told >= turn - SIDE_REACH),
    );
    const problem = sided[index];
    if (problem === undefined) continue;
    sided[index] = {
      ...problem,
      laterality: side,
      text: `${side} ${problem.name}`,
      source: turnsSource([...problem.source.turns, turn, exchange.answerTurn]),
    };
  }
  return sided;
}

/**
 * The side an utterance corrects ("it's not the right knee, it's the left"), the side said instead
 * read from the next sentence of the same turn when it opens it ("It's not the right knee. It's the left knee.").
 */
export function sideCorrectedAt(utterances: readonly Utterance[], position: number): ReturnType<typeof sideCorrection> {
  const utterance = utterances[position];
  if (utterance === undefined) return null;
  const next = utterances[position + 1];
  return (
    sideCorrection(utterance.text) ??
    (next?.turn === utterance.turn ? sideCorrection(`${utterance.text} ${next.text}`) : null)
  );
}

/**
 * A side the patient corrects, asked or not ("some right knee pain … tell me about it" "it's not
 * the right knee, it's the left knee"): the problem told with the denied side just before takes
 * the side said instead.
 */
export function withSidesCorrected(
  problems: readonly ProblemDraft[],
  utterances: readonly Utterance[],
): ProblemDraft[] {
  const sided = [...problems];
  for (const [position, utterance] of utterances.entries()) {
    const correction = utterance.speaker === 'clinician' ? null : sideCorrectedAt(utterances, position);
    if (correction === null) continue;
    const { denied } = correction;
    const index = sided.findLastIndex(
      (problem) =>
        problem.laterality === denied &&
        problem.source.turns.some((told) => told < utterance.turn && told >= utterance.turn - SIDE_REACH),
    );
    const problem = sided[index];
    if (problem === undefined) continue;
    sided[index] = {
      ...problem,
      laterality: correction.side,
      text: withSideCorrected(problem.text, correction),
      source: turnsSource([...problem.source.turns, utterance.turn]),
    };
  }
  return sided;
}
