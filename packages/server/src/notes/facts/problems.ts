/**
 * Symptoms and problems of the patient, present or denied, with their attributes: from what the
 * patient (or a companion, or the clinician summing up) says in the history, and from each question
 * fused with its answer ("any chest pain?" "no" → chest pain, absent). A relative's condition is
 * family history (history.ts), never the patient's; what the clinician says might happen ("if you
 * get a fever, call me") is counselling (a plan item), never history; a companion's own complaint
 * ("I had the same bug") is theirs.
 */
import type { FactPolarity, FactSpeaker } from '@chartwright/protocol';

import type { Kind } from '../engines/extractive/lexicons.js';
import { answerOf, functionAnswer } from './answers.js';
import { attributesIn, locationIn, sideIn } from './attributes.js';
import { conditionsIn } from './condition-mentions.js';
import { turnsSource, type DraftOf } from './draft.js';
import type { Exchange } from './exchanges.js';
import { relativeIn } from './lexicon/relatives.js';
import { mentionPolarity } from './polarity.js';
import { withSidesAnswered, withSidesCorrected } from './problem-sides.js';
import { symptomsIn, topicsAsked, type Found } from './symptom-mentions.js';
import { systemOf } from './systems.js';
import { clauseAround, type Utterance } from './utterances.js';

export type ProblemDraft = DraftOf<'problem'>;
export type RosDraft = DraftOf<'ros'>;

/** The clinician saying what could happen, or what to do if it does: never the patient's history. */
export const HYPOTHETICAL =
  /\b(?:if|in case|should you|unless|call (?:me|us|the office|911)|let (?:me|us) know|watch (?:for|out)|look out for|keep an eye out|make sure|some people|most people|a lot of people|side effects?|can cause|could cause|may cause|might cause|can make|could make|risk of|signs of|warning signs|go to the (?:er|emergency)|seek (?:care|attention))\b/;

/** Hypotheticals whose scope is the whole clause ("some people get dizzy on this"). */
const GENERAL_TALK =
  /\b(?:some people|most people|a lot of people|many people|side effects?|can cause|could cause|may cause|might cause|risk of|signs of|warning signs)\b/;
/**
 * Hypotheticals whose scope starts at the trigger ("… today, to make sure there is no clot"),
 * likenesses ("it felt like I was having a heart attack", "as if") and what others would do ("and
 * then they would have a heart attack at 50"): none is what the patient had.
 */
const CONDITIONAL =
  /\b(?:if|in case|should you|unless|make sure|watch (?:for|out)|look out for|call (?:me|us|the office|911)|let (?:me|us) know|go to the (?:er|emergency)|as if|as though|(?:felt|feels|feel|feeling) like (?:i|i'm|i am|i was|he was|she was|they were) (?:having|going to have|about to have)|thought (?:i|he|she|they) (?:was|were) having|(?:they|people|someone|somebody) would)\b/;

/** What side effects are talked of is real, whatever the effects: "the side effects of metformin". */
const EFFECTS_OF = /\bside effects? (?:of|with|from|on) (?:the |your |this |that )?$/;

/** Whether the words at `position` are said as a possibility, not as what the patient has. */
export function inHypothetical(text: string, position: number): boolean {
  if (EFFECTS_OF.test(text.slice(0, position))) return false;
  const clause = clauseAround(text, position);
  if (GENERAL_TALK.test(clause.text)) return true;
  const trigger = CONDITIONAL.exec(clause.text);
  return trigger !== null && clause.start + trigger.index <= position;
}

/** The statement kinds a patient's symptoms are told in. */
const HISTORY_KINDS: ReadonlySet<Kind> = new Set(['hpi', 'ros', 'chief_complaint', 'social_history', 'past_history']);

/** First person in a companion's words: their own complaint, not the patient's. */
export const FIRST_PERSON = /(?<![\w'])(?:i|i am|i have|i had|my|me)(?![\w'])/;
const LOCATED = / (?:pain|swelling|stiffness|injury|clicking)$/;
/** Symptoms named with their place when the statement gives one: "neck mass", "left arm tingling". */
const PLACED = /^(?:mass|rash|numbness|tingling|weakness|bruising|wound|skin lesion|itching|muscle cramps)$/;

export interface ProblemContext {
  utterances: readonly Utterance[];
  exchanges: readonly Exchange[];
  /** Statements telling of an allergy: the reaction they name is not a symptom of the visit. */
  allergyStatements?: ReadonlySet<Utterance>;
}

function draft(found: Found, clause: string, polarity: FactPolarity, speaker: FactSpeaker, turns: readonly number[]) {
  const attributes = attributesIn(clause);
  const place = locationIn(clause);
  const laterality = place === null ? sideIn(clause) : place.laterality;
  const placed = PLACED.test(found.name) && place !== null;
  const located = LOCATED.test(found.name) || placed;
  const name = placed ? `${place.location} ${found.name}` : found.name;
  // "Any numbness in your legs?" "No." denies leg numbness; "bilateral" would say more than was asked.
  const said = laterality === 'bilateral' && polarity === 'absent' ? undefined : laterality;
  const text = said !== undefined && located ? `${said} ${name}` : name;
  const problem: ProblemDraft = {
    kind: 'problem',
    text,
    name,
    polarity,
    subject: speaker === 'other' && FIRST_PERSON.test(clause) ? { type: 'other' } : { type: 'patient' },
    speaker,
    source: turnsSource(turns),
    modifiers: attributes.modifiers,
  };
  if (attributes.duration !== undefined) problem.duration = attributes.duration;
  if (attributes.onset !== undefined) problem.onset = attributes.onset;
  if (attributes.severity !== undefined) problem.severity = attributes.severity;
  if (attributes.timing !== undefined) problem.timing = attributes.timing;
  if (place !== null && (located || place.laterality !== undefined)) problem.location = place.location;
  if (laterality !== undefined) problem.laterality = laterality;
  return problem;
}

/** The body part the conversation was last about, up to the turn before `turn`. */
function lastLocation(utterances: readonly Utterance[], turn: number): string | undefined {
  for (let index = utterances.length - 1; index >= 0; index--) {
    const utterance = utterances[index];
    if (utterance === undefined || utterance.turn >= turn) continue;
    if (utterance.turn < turn - 3) break;
    const place = locationIn(utterance.text);
    if (place !== null) return place.location;
  }
  return undefined;
}

/** A chronic condition said to be active now ("the eczema flares up every winter"): today's problem too. */
const ACTIVE =
  /^(?: [a-z']+){0,4}? (?:(?:has|is|keeps|has been|is been|been|getting|gotten|got) )?(?:flares? up|flaring(?: up)?|acting up|worse|out of control|bothering me|(?:bad|terrible|awful) (?:lately|again))\b/;

function activeConditions(text: string): Found[] {
  return conditionsIn(text)
    .filter((mention) => ACTIVE.test(text.slice(mention.end).replace(/^'s\b/, ' is')))
    .map((mention) => ({ name: `${mention.entry.name} flare`, start: mention.start, end: mention.end }));
}

/**
 * "Down my left arm, into my hand. It tingles.": a symptom that takes a place, said without one,
 * is where the sentence before it in the same turn just put it.
 */
function placedBefore(found: Found, clause: string, utterance: Utterance, context: ProblemContext): string {
  if (!PLACED.test(found.name) || locationIn(clause) !== null) return clause;
  const before = context.utterances
    .filter((other) => other.turn === utterance.turn && other.order < utterance.order)
    .at(-1);
  return before === undefined || locationIn(before.text) === null ? clause : `${before.text} ${clause}`;
}

/** The reason a clinician gives before a decision: "with the calf this sore, I want an ultrasound". */
const REASON_CLAUSE = /^(?:with|given|because of|since|due to) [^,]+(?= ,)/;

/** The patient's problems a clinician names as the reason for what they decide, in the history. */
function givenAsReason(utterance: Utterance): ProblemDraft[] {
  if (utterance.phase !== 'history') return [];
  const reason = REASON_CLAUSE.exec(utterance.text)?.[0];
  if (reason === undefined) return [];
  return symptomsIn(reason)
    .filter((found) => !inHypothetical(reason, found.start))
    .map((found) =>
      draft(found, reason, mentionPolarity(reason, found.start, found.end), utterance.speaker, [utterance.turn]),
    );
}

function stated(utterance: Utterance, context: ProblemContext): ProblemDraft[] {
  if (utterance.question) return [];
  if (context.allergyStatements?.has(utterance) === true) return [];
  // The clinician tells the patient's symptoms only in the history, and not while counselling or deciding.
  const tellsHistory =
    utterance.phase === 'history' && HISTORY_KINDS.has(utterance.kind) && !HYPOTHETICAL.test(utterance.text);
  if (utterance.speaker === 'clinician' && !tellsHistory) return givenAsReason(utterance);
  if (!HISTORY_KINDS.has(utterance.kind)) return [];
  const drafts: ProblemDraft[] = [];
  const mentioned = [
    ...symptomsIn(utterance.text, lastLocation(context.utterances, utterance.turn)),
    ...activeConditions(utterance.text),
  ];
  for (const found of mentioned) {
    if (found.inverted === true) continue;
    const clause = clauseAround(utterance.text, found.start);
    // "My mother had …": family history, not the patient's problem.
    if (relativeIn(clause.text.slice(0, found.start - clause.start)) !== undefined) continue;
    const polarity = mentionPolarity(utterance.text, found.start, found.end);
    drafts.push(
      draft(found, placedBefore(found, clause.text, utterance, context), polarity, utterance.speaker, [utterance.turn]),
    );
  }
  return drafts;
}

/** "What would happen if you ran out? Would you get wheezy?": nothing the patient has. */
const HYPOTHETICAL_QUESTION = /\b(?:would you|what if|if you|what would|could you get)\b/;

/** A question about what was just said: "… an upset stomach or diarrhea. Have you had any of that?". */
const REFERS_BACK = /\b(?:any of (?:that|those|these|them)|either of (?:those|these|them))\b/;

/** The words a question asks about: its own, or the clinician's statement just before it that it refers to. */
function askedText(question: Utterance, utterances: readonly Utterance[]): string {
  if (!REFERS_BACK.test(question.text)) return question.text;
  const before = utterances.filter(
    (utterance) => utterance.turn === question.turn && utterance.order < question.order && !utterance.question,
  );
  return before.at(-1)?.text ?? question.text;
}

/**
 * A question about the patient's symptoms: any asked in the history, and one asked during the
 * examination about symptoms at large ("before I do, any chest pain today?"), not about what the
 * examiner's hands provoke ("when I press here, does that hurt?").
 */
const ASKS_AT_LARGE = /^no\b|\b(?:any|having|have you|do you have|you are not|you have not|make sure)\b/;
const ASKS_OF_THE_EXAM =
  /\b(?:when i|if i|(?:does|is|did) (?:that|this|it)|that (?:hurts?|painful|tender)|here|there|press\w*|push\w*)\b|\bany (?:pain|tenderness)$/;
const reviewsSymptoms = (question: Utterance) =>
  question.phase === 'history' ||
  (question.phase === 'exam' && ASKS_AT_LARGE.test(question.text) && !ASKS_OF_THE_EXAM.test(question.text));

function answered(exchange: Exchange, context: ProblemContext): ProblemDraft[] {
  const { question } = exchange;
  if (!reviewsSymptoms(question) || HYPOTHETICAL_QUESTION.test(question.text)) return [];
  const asked = askedText(question, context.utterances);
  const topics = topicsAsked(asked, lastLocation(context.utterances, question.turn + 1));
  if (topics.length === 0) return [];
  const named = new Set(exchange.answer.flatMap((statement) => symptomsIn(statement.text).map((found) => found.name)));
  // The answer takes up some of the topics itself ("no fever, but some chills"): the rest were not answered.
  if (topics.some((topic) => named.has(topic.name))) return [];
  const { polarity, timing } = answerOf(exchange.spoken, exchange.form);
  return topics.flatMap((topic) => {
    // "How's your sleep?": the answer says whether there is a problem, not yes or no.
    const value = topic.inverted === true ? functionAnswer(exchange.spoken) : polarity;
    if (value === null) return [];
    const clause = `${clauseAround(asked, topic.start).text} ${exchange.spoken.join(' ')}`;
    const fact = draft(topic, clause, value, exchange.answerSpeaker, [question.turn, exchange.answerTurn]);
    if (timing !== undefined && value === 'present') fact.timing = timing;
    return [fact];
  });
}

const RANK: Readonly<Record<FactPolarity, number>> = { present: 2, uncertain: 1, absent: 0 };

/** One fact per problem and subject: a problem said to be present anywhere is present. */
function merge(drafts: readonly ProblemDraft[]): ProblemDraft[] {
  const byKey = new Map<string, ProblemDraft>();
  for (const next of drafts) {
    const key = `${next.subject.type}:${next.name}`;
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
  return foldIntoSpecific([...byKey.values()]);
}

/** "Back pain" said beside "lower back pain" is the same complaint: the specific name keeps both. */
function foldIntoSpecific(problems: readonly ProblemDraft[]): ProblemDraft[] {
  const specificOf = (general: ProblemDraft) =>
    problems.find(
      (other) =>
        other !== general &&
        other.polarity === general.polarity &&
        other.subject.type === general.subject.type &&
        other.name.endsWith(` ${general.name}`),
    );
  const folded = new Map<ProblemDraft, ProblemDraft>(problems.map((problem) => [problem, problem]));
  for (const general of problems) {
    const specific = specificOf(general);
    if (specific === undefined) continue;
    const kept = folded.get(specific) ?? specific;
    folded.set(specific, {
      ...general,
      ...kept,
      source: turnsSource([...kept.source.turns, ...general.source.turns]),
      modifiers: [...new Set([...kept.modifiers, ...general.modifiers])],
    });
    folded.delete(general);
  }
  return [...folded.values()];
}

/** A general question denied, then one of its specifics told later: the denial no longer holds. */
const GENERAL: Readonly<Record<string, RegExp>> = {
  'vision problems': /^(?:blurred vision|double vision|eye pain|eye redness)$/,
  'changes in bowel habits': /^(?:diarrhea|constipation|blood in stool)$/,
  'weight change': /^(?:weight loss|weight gain)$/,
};

function withoutTakenBack(problems: readonly ProblemDraft[]): ProblemDraft[] {
  return problems.filter((problem) => {
    const specific = GENERAL[problem.name];
    if (specific === undefined || problem.polarity !== 'absent') return true;
    const denied = problem.source.turns.at(-1) ?? 0;
    return !problems.some(
      (other) => other.polarity === 'present' && specific.test(other.name) && (other.source.turns[0] ?? 0) > denied,
    );
  });
}

/** The clinician announcing a run of symptom questions: their answers are the review of systems. */
const ROS_START =
  /\b(?:review of systems|systems review|run through (?:a|some|a few|the) (?:quick )?(?:questions|symptoms|things|list)|(?:a|some|a few) (?:quick )?(?:yes or no )?questions about (?:your )?symptoms)\b/;
const ROS_TURNS = 16;

/** The turns of the visit that belong to a review of systems. */
function reviewTurns(utterances: readonly Utterance[]): Set<number> {
  const turns = new Set<number>();
  for (const utterance of utterances) {
    if (utterance.speaker !== 'clinician' || !ROS_START.test(utterance.text)) continue;
    const last = utterance.turn + ROS_TURNS;
    for (const later of utterances) {
      if (later.turn < utterance.turn || later.turn > last) continue;
      if (later.phase !== 'history') break;
      turns.add(later.turn);
    }
  }
  return turns;
}

const asReview = (problem: ProblemDraft): RosDraft => ({
  kind: 'ros',
  text: problem.text,
  system: systemOf(problem),
  finding: problem.text,
  polarity: problem.polarity,
  subject: problem.subject,
  speaker: problem.speaker,
  source: problem.source,
});

export function problemFacts(context: ProblemContext): (ProblemDraft | RosDraft)[] {
  const review = reviewTurns(context.utterances);
  const fromReview = (exchange: Exchange) => review.has(exchange.question.turn);
  const told = context.utterances.flatMap((utterance) => stated(utterance, context));
  const inReview = (problem: ProblemDraft) => problem.source.turns.every((turn) => review.has(turn));
  const problems = withSidesCorrected(
    withSidesAnswered(
      withoutTakenBack(
        merge([
          ...told.filter((problem) => !inReview(problem)),
          ...context.exchanges
            .filter((exchange) => !fromReview(exchange))
            .flatMap((exchange) => answered(exchange, context)),
        ]),
      ),
      context.exchanges,
    ),
    context.utterances,
  );
  const reviewed = [
    ...told.filter(inReview),
    ...context.exchanges.filter(fromReview).flatMap((exchange) => answered(exchange, context)),
  ];
  return [...problems, ...merge(reviewed).map(asReview)];
}
