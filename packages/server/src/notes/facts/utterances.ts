/**
 * The visit as facts are read from it: each statement (a sentence, or a clause of a long spoken
 * one) with its speaker, turn, whether it asks something, its kind, the phase of the visit it was
 * said in, and its words cleaned of fillers, lower case, numbers as digits ("for 2 weeks").
 */
import type { FactSpeaker } from '@chartwright/protocol';

import type { Conversation } from '../../text/conversation.js';
import { classifyWithPhases, type Phase } from '../engines/extractive/classify.js';
import type { Kind } from '../engines/extractive/lexicons.js';
import { digitize } from '../../text/spoken-numbers.js';
import { extractStatements, type Statement } from '../engines/extractive/statements.js';

export type { Phase };

export interface Utterance {
  turn: number;
  /** Conversation order. */
  order: number;
  speaker: FactSpeaker;
  question: boolean;
  kind: Kind;
  phase: Phase;
  /** Cleaned, lower case, numbers as digits, tokens joined by single spaces. */
  text: string;
  /** The cleaned tokens as said (case kept), for writing. */
  tokens: readonly string[];
  /** The statement it was read from, for the speech helpers that take one. */
  statement: Statement;
}

/** Words as cues are matched against them: lower case, numbers as digits. */
export function cueText(tokens: readonly string[]): string {
  return digitize(tokens).join(' ').toLowerCase();
}

export function utterancesOf(conversation: Conversation): Utterance[] {
  const statements = extractStatements(conversation);
  const classified = classifyWithPhases(statements);
  return statements
    .map((statement, index): Utterance => {
      const { kind, phase } = classified[index] ?? { kind: 'hpi', phase: 'history' };
      return {
        turn: statement.turns[0] ?? 0,
        order: statement.order,
        speaker: statement.speaker,
        question: statement.question,
        kind,
        phase,
        text: cueText(statement.tokens),
        tokens: statement.tokens,
        statement,
      };
    })
    .sort((a, b) => a.order - b.order);
}

/** Where one thought ends in running speech: sentence marks and the words that turn it around. */
const CLAUSE_BREAK = /\b(?:but|however|although|though|except|whereas)\b|[;.?!]/g;

/** The clause of `text` around `position`: its start offset and its words. */
export function clauseAround(text: string, position: number): { start: number; text: string } {
  let start = 0;
  let end = text.length;
  CLAUSE_BREAK.lastIndex = 0;
  for (let match = CLAUSE_BREAK.exec(text); match !== null; match = CLAUSE_BREAK.exec(text)) {
    if (match.index < position) start = match.index + match[0].length;
    else {
      end = match.index;
      break;
    }
  }
  return { start, text: text.slice(start, end) };
}
