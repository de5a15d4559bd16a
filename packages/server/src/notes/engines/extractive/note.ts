import type { GeneratedNote, GenerationInput } from '../../generator.js';
import { splitSentences } from '../../../text/sentences.js';

import { assemble, type Candidate } from './assemble.js';
import { chiefComplaint } from './chief-complaint.js';
import { classifyStatements } from './classify.js';
import { cleanSpeech } from './clean.js';
import { contextSentences } from './context.js';
import { patientGender } from './gender.js';
import { answeredQuestions, patientDenial } from './questions.js';
import { isUsable, relevance } from './relevance.js';
import { toNoteSentence, toThirdPerson } from './rewrite.js';
import { routeSections } from './sections.js';
import { noteStyle } from './style.js';
import { extractStatements, type Statement } from './statements.js';
import { contentStems, tokenize } from './text.js';
import { wordWeight } from './word-weights.js';

/** Share of the conversation's words a note keeps, and the bounds on it (see the tuning notes in index.ts). */
const BUDGET_RATIO = 0.33;
const BUDGET_MIN = 150;
const BUDGET_MAX = 650;

function extraStatements(extra: string | undefined): Statement[] {
  if (extra === undefined || extra.trim() === '') return [];
  return splitSentences(extra.replace(/\s+/g, ' ')).flatMap((text, index): Statement[] => {
    const tokens = cleanSpeech(text);
    if (tokens.length === 0) return [];
    // Context comes after the conversation, so it never shifts what the turns' order means.
    return [
      {
        turns: [],
        speaker: 'unknown',
        order: 1e12 + index,
        position: 0,
        tokens,
        lower: tokens.join(' ').toLowerCase(),
        raw: text.toLowerCase(),
        question: false,
        origin: 'said',
        contextPath: 'extra',
      },
    ];
  });
}

/** The reason for the visit when said outright, and the caller's context: always in the note. */
function pinnedCandidates(said: readonly Statement[], context: GenerationInput['context']): Candidate[] {
  const pinned: Candidate[] = [];
  const reason = chiefComplaint(said);
  const fromContext = contextSentences(context);
  if (reason !== null && !fromContext.some((item) => item.kind === 'chief_complaint')) {
    pinned.push({
      text: reason.text,
      kind: 'chief_complaint',
      score: 1,
      order: -1,
      turns: reason.turns,
      context: [],
      stems: new Set(contentStems(reason.text)),
      pinned: true,
      usable: true,
    });
  }
  fromContext.forEach((item, index) => {
    pinned.push({
      text: item.text,
      kind: item.kind,
      score: 1,
      order: -1e6 + index,
      turns: [],
      context: [item.path],
      stems: new Set(contentStems(item.text)),
      pinned: true,
      usable: true,
    });
  });

  return pinned;
}

/**
 * Every statement of the input as a scored, note-style candidate (before selection). `weigh` gives
 * each word's note rate: the rates' builder, which learns them from these candidates, passes none.
 */
export function noteCandidates(input: GenerationInput, weigh: (word: string) => number = wordWeight): Candidate[] {
  const { conversation, context } = input;
  const gender = patientGender(conversation, context);
  const said = extractStatements(conversation);
  const statements = [...said, ...answeredQuestions(conversation, said, gender), ...extraStatements(context.extra)];
  const kinds = classifyStatements(statements);

  const candidates: Candidate[] = [];
  statements.forEach((statement, index) => {
    const kind = kinds[index] ?? 'hpi';
    const denial =
      statement.speaker === 'patient' && statement.origin === 'said' ? patientDenial(statement.tokens) : null;
    const tokens = denial ?? statement.tokens;
    const rewritten =
      statement.rewritten === true
        ? tokens
        : toThirdPerson(tokens, denial === null ? statement.speaker : 'clinician', gender);
    // Orders, findings and impressions are rewritten in note style only in the clinician's own words.
    const styled =
      statement.rewritten === true || statement.contextPath !== undefined
        ? { tokens: rewritten, heading: false }
        : noteStyle(rewritten, kind, denial === null && statement.speaker === 'clinician');
    if (styled === null) return;
    const text = toNoteSentence(styled.tokens);
    if (text === '') return;
    const scored = denial === null ? statement : { ...statement, origin: 'denied' as const };
    const score = relevance(scored, kind, tokenize(text), weigh);
    candidates.push({
      text,
      kind: denial === null ? (styled.heading ? 'assessment' : kind) : 'ros',
      score,
      order: statement.order,
      turns: statement.turns,
      context: statement.contextPath === undefined ? [] : [statement.contextPath],
      stems: new Set(contentStems(text)),
      pinned: false,
      usable: isUsable(statement),
    });
  });

  return [...candidates, ...pinnedCandidates(said, context)];
}

/** The whole pipeline: statements → kinds → note-style sentences → scored → laid out. */
export function extractiveNote(input: GenerationInput): GeneratedNote {
  const { template, conversation } = input;
  const routing = routeSections(template);
  const candidates = noteCandidates(input);
  const spokenWords = conversation.turns.reduce((sum, turn) => sum + turn.text.split(/\s+/).length, 0);
  const budget = Math.min(BUDGET_MAX, Math.max(BUDGET_MIN, Math.round(spokenWords * BUDGET_RATIO)));
  return assemble(template, routing, candidates, budget);
}
