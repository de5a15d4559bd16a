/**
 * Symptoms and problems of the patient, present or denied, with their attributes: from what the
 * patient (or a companion, or the clinician summing up) says in the history, and from each yes/no
 * question fused with its answer ("any chest pain?" "no" → chest pain, absent). A relative's
 * condition is family history (history.ts), never the patient's; what the clinician says might
 * happen ("if you get a fever, call me") is counselling, never history.
 */
import type { FactPolarity, FactSpeaker } from '@chartwright/protocol';

import type { Kind } from '../engines/extractive/lexicons.js';
import { attributesIn, locationIn } from './attributes.js';
import { turnsSource, type DraftOf } from './draft.js';
import { PhraseMatcher } from './mentions.js';
import { PAIN_WORDS, STIFFNESS_WORDS, SWELLING_WORDS } from './lexicon/anatomy.js';
import { relativeIn } from './lexicon/relatives.js';
import { SYMPTOMS, type SymptomEntry } from './lexicon/symptoms.js';
import { answerOfTurn, mentionPolarity } from './polarity.js';
import { clauseAround, type Utterance } from './utterances.js';

export type ProblemDraft = DraftOf<'problem'>;

const MATCHER = new PhraseMatcher<SymptomEntry>(SYMPTOMS, (entry) => entry.phrases);

/** The clinician saying what could happen, or what to do if it does: never the patient's history. */
export const HYPOTHETICAL =
  /\b(?:if|in case|should you|unless|call (?:me|us|the office|911)|let (?:me|us) know|watch (?:for|out)|look out for|keep an eye out|make sure|some people|most people|a lot of people|side effects?|can cause|could cause|may cause|might cause|can make|could make|risk of|signs of|warning signs|go to the (?:er|emergency)|seek (?:care|attention))\b/;

/** The statement kinds a patient's symptoms are told in. */
const HISTORY_KINDS: ReadonlySet<Kind> = new Set(['hpi', 'ros', 'chief_complaint', 'social_history', 'past_history']);

interface Found {
  name: string;
  start: number;
  end: number;
}

/** Symptoms of the lexicon, then complaints of a body part ("my left knee hurts" → knee pain). */
export function symptomsIn(text: string): Found[] {
  const found: Found[] = MATCHER.find(text).map((mention) => ({
    name: mention.entry.name,
    start: mention.start,
    end: mention.end,
  }));
  for (const [words, complaint] of [
    [PAIN_WORDS, 'pain'],
    [SWELLING_WORDS, 'swelling'],
    [STIFFNESS_WORDS, 'stiffness'],
  ] as const) {
    const pattern = new RegExp(words.source, 'g');
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const start = match.index;
      if (found.some((mention) => start >= mention.start - 30 && start <= mention.end + 5)) continue;
      const clause = clauseAround(text, start);
      const place = locationIn(clause.text);
      if (place === null) continue;
      found.push({ name: `${place.location} ${complaint}`, start, end: start + match[0].length });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** First person in a companion's words: their own complaint, not the patient's. */
const FIRST_PERSON_SUBJECT = /\b(?:i|i am|i have|i had|my)\b/;

function draft(
  found: Found,
  clause: string,
  polarity: FactPolarity,
  speaker: FactSpeaker,
  turns: readonly number[],
  extra: { timing?: string } = {},
): ProblemDraft {
  const attributes = attributesIn(clause);
  const place = locationIn(clause);
  const laterality = place?.laterality;
  const located = found.name.endsWith(' pain') || found.name.endsWith(' swelling') || found.name.endsWith(' stiffness');
  const timing = extra.timing ?? attributes.timing;
  return {
    kind: 'problem',
    text: laterality !== undefined && located ? `${laterality} ${found.name}` : found.name,
    name: found.name,
    polarity,
    subject: speaker === 'other' && FIRST_PERSON_SUBJECT.test(clause) ? { type: 'other' } : { type: 'patient' },
    speaker,
    source: turnsSource(turns),
    ...(attributes.duration === undefined ? {} : { duration: attributes.duration }),
    ...(attributes.onset === undefined ? {} : { onset: attributes.onset }),
    ...(attributes.severity === undefined ? {} : { severity: attributes.severity }),
    ...(timing === undefined ? {} : { timing }),
    ...(place === null || !located ? {} : { location: place.location }),
    ...(laterality === undefined || !located ? {} : { laterality }),
    modifiers: attributes.modifiers,
  };
}

/** Problems stated outright in the history (not asked about). */
function statedProblems(utterances: readonly Utterance[]): ProblemDraft[] {
  const drafts: ProblemDraft[] = [];
  for (const utterance of utterances) {
    if (utterance.question || !HISTORY_KINDS.has(utterance.kind)) continue;
    if (utterance.speaker === 'clinician' && (utterance.phase !== 'history' || HYPOTHETICAL.test(utterance.text))) continue;
    for (const found of symptomsIn(utterance.text)) {
      const clause = clauseAround(utterance.text, found.start);
      // "My mother had …": family history, not the patient's problem.
      if (relativeIn(clause.text.slice(0, found.start - clause.start)) !== undefined) continue;
      const polarity = mentionPolarity(utterance.text, found.start, found.end);
      drafts.push(draft(found, clause.text, polarity, utterance.speaker, [utterance.turn]));
    }
  }
  return drafts;
}

/** The answer to a question: the next turn's statements, when someone other than the clinician says it. */
export function answerTo(question: Utterance, utterances: readonly Utterance[]): Utterance[] {
  const turn = utterances.filter((utterance) => utterance.turn === question.turn + 1);
  return turn[0] === undefined || turn[0].speaker === 'clinician' ? [] : turn;
}

/** Yes/no questions about symptoms, each topic given the answer's polarity. */
function answeredProblems(utterances: readonly Utterance[]): ProblemDraft[] {
  const drafts: ProblemDraft[] = [];
  for (const question of utterances) {
    if (!question.question || question.speaker !== 'clinician' || question.phase !== 'history') continue;
    // Only the turn's last question is the one answered.
    if (utterances.some((other) => other.turn === question.turn && other.question && other.order > question.order)) continue;
    const answer = answerTo(question, utterances);
    const [first] = answer;
    if (first === undefined) continue;
    const { polarity, timing } = answerOfTurn(answer.map((statement) => statement.text));
    if (polarity === null) continue;
    const named = new Set(answer.flatMap((statement) => symptomsIn(statement.text).map((found) => found.name)));
    for (const found of symptomsIn(question.text)) {
      // The answer names it itself ("no fever, but some chills"): its own words decide.
      if (named.has(found.name)) continue;
      const clause = clauseAround(question.text, found.start).text;
      drafts.push(
        draft(found, clause, polarity, first.speaker, [question.turn, first.turn], timing === undefined ? {} : { timing }),
      );
    }
  }
  return drafts;
}

const RANK: Readonly<Record<FactPolarity, number>> = { present: 2, uncertain: 1, absent: 0 };

/** One fact per problem and subject: a problem said to be present anywhere is present. */
function merge(drafts: readonly ProblemDraft[]): ProblemDraft[] {
  const byKey = new Map<string, ProblemDraft>();
  for (const next of drafts) {
    const key = `${next.subject.type}:${next.text}`;
    const kept = byKey.get(key);
    if (kept === undefined) {
      byKey.set(key, next);
      continue;
    }
    const lead = RANK[next.polarity] > RANK[kept.polarity] ? next : kept;
    const other = lead === next ? kept : next;
    byKey.set(key, {
      ...other,
      ...lead,
      source: turnsSource([...kept.source.turns, ...next.source.turns]),
      modifiers: [...new Set([...kept.modifiers, ...next.modifiers])],
    });
  }
  return [...byKey.values()];
}

export function problemFacts(utterances: readonly Utterance[]): ProblemDraft[] {
  return merge([...statedProblems(utterances), ...answeredProblems(utterances)]);
}
