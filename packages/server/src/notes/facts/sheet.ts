/**
 * The fact sheet of a visit: every fact the extractors find in the conversation and the chart
 * context, numbered (`f1`, `f2` …), each judged for certainty from the recognizer's words, with
 * the chief complaint and how the note may name the patient. What every engine writes from.
 */
import type { Fact, FactOf } from '@chartwright/protocol';

import type { Conversation } from '../../text/conversation.js';
import { parseConversation } from '../../text/parse-conversation.js';
import { withCheckedRoles } from '../../text/speaker-roles.js';
import { chiefComplaint } from '../engines/extractive/chief-complaint.js';
import { patientGender } from '../engines/extractive/gender.js';
import type { Gender } from '../engines/extractive/rewrite.js';
import type { GenerationInput } from '../generator.js';
import { allergiesOf } from './allergies.js';
import { withSideCorrected } from './attributes.js';
import { sideCorrectedAt } from './problem-sides.js';
import { assessmentPlanFacts } from './assessment-plan.js';
import { certaintyOf } from './certainty.js';
import { chartFacts } from './chart.js';
import { exchangesOf } from './exchanges.js';
import { turnsSource, type FactDraft } from './draft.js';
import { examFacts, resultFacts } from './findings.js';
import { historyFacts } from './history.js';
import { medicationFacts } from './medications.js';
import { narrativeFacts } from './narrative.js';
import { problemFacts } from './problems.js';
import { socialFacts } from './social.js';
import { utterancesOf, type Utterance } from './utterances.js';
import { vitalFacts } from './vitals.js';

export interface FactSheet {
  facts: Fact[];
  /** The reason for the visit, and the facts it rests on. */
  chiefComplaint: { text: string; facts: Fact[] } | null;
  gender: Gender;
}

export interface ExtractionOptions {
  /** The word rates narrative statements are weighed with; the rates' own builder passes none. */
  weigh?: (word: string) => number;
}

function drafts(
  conversation: Conversation,
  utterances: readonly Utterance[],
  gender: Gender,
  options: ExtractionOptions,
): FactDraft[] {
  const exchanges = exchangesOf(conversation, utterances);
  const allergies = allergiesOf(utterances, exchanges);
  return [
    ...narrativeFacts(utterances, { gender, ...(options.weigh === undefined ? {} : { weigh: options.weigh }) }),
    ...problemFacts({ utterances, exchanges, allergyStatements: allergies.statements }),
    ...allergies.facts,
    ...medicationFacts(utterances, exchanges, allergies.statements),
    ...historyFacts(utterances, exchanges),
    ...socialFacts(utterances, exchanges),
    ...vitalFacts(utterances),
    ...examFacts(utterances, gender),
    ...resultFacts(utterances, gender),
    ...assessmentPlanFacts(utterances, gender),
  ];
}

/** In the order of the visit: a fact sits where it was first said; chart facts come first. */
const firstTurn = (draft: FactDraft) => draft.source.turns[0] ?? -1;

function numbered(all: readonly FactDraft[], conversation: Conversation): Fact[] {
  return [...all]
    .sort((a, b) => firstTurn(a) - firstTurn(b))
    .map((draft, index) => ({ ...draft, id: `f${index + 1}`, certainty: certaintyOf(draft, conversation) }));
}

/** The reason for the visit when someone says it outright ("here for follow-up of …"). */
function reasonDraft(utterances: readonly Utterance[]): FactDraft[] {
  const said = chiefComplaint(utterances.map((utterance) => utterance.statement));
  if (said === null) return [];
  // "Some right knee pain?" "It's not the right knee, it's the left knee.": the reason takes the side said.
  const last = Math.max(...said.turns);
  const correction = utterances
    .map((utterance, position) =>
      utterance.speaker !== 'clinician' && utterance.turn > last && utterance.turn <= last + 2
        ? sideCorrectedAt(utterances, position)
        : null,
    )
    .find((found) => found !== null);
  const stated = said.text.replace(/\.$/, '');
  const text = correction === undefined ? stated : withSideCorrected(stated, correction);
  return [
    {
      kind: 'narrative',
      topic: 'other',
      text,
      statement: `Presents for ${text.charAt(0).toLowerCase()}${text.slice(1)}.`,
      polarity: 'present',
      subject: { type: 'patient' },
      speaker: 'unknown',
      source: turnsSource(said.turns),
    },
  ];
}

/** Said or charted reason first, else the first symptoms the patient brings up. */
function reasonForVisit(facts: readonly Fact[]): FactSheet['chiefComplaint'] {
  const stated = facts.find(
    (fact) => fact.kind === 'narrative' && fact.topic === 'other' && fact.source.context.length === 0,
  );
  const charted = facts.find((fact) => fact.source.context.includes('medical.chiefComplaint'));
  const reason = charted ?? stated;
  if (reason !== undefined) return { text: reason.text, facts: [reason] };
  const first = facts.filter(
    (fact) => fact.kind === 'problem' && fact.polarity === 'present' && fact.subject.type === 'patient',
  );
  if (first.length === 0) {
    // No complaint told: the problem the clinician assessed is what the visit was for.
    const assessed = facts.find(
      (fact): fact is FactOf<'assessment'> => fact.kind === 'assessment' && fact.problem.split(' ').length <= 6,
    );
    return assessed === undefined ? null : { text: assessed.problem, facts: [assessed] };
  }
  return {
    text: first
      .slice(0, 2)
      .map((fact) => fact.text)
      .join(' and '),
    facts: first.slice(0, 2),
  };
}

/**
 * The caller's free text ("Smokes half a pack per day.") read by the same extractors as the visit,
 * each fact citing the `extra` context field instead of a turn.
 */
function extraFacts(extra: string | undefined, gender: Gender, options: ExtractionOptions): FactDraft[] {
  if (extra === undefined || extra.trim() === '') return [];
  const conversation = parseConversation(extra);
  return drafts(conversation, utterancesOf(conversation), gender, options).map((draft) => ({
    ...draft,
    source: { turns: [], context: ['extra'] },
  }));
}

export function extractFacts(input: GenerationInput, options: ExtractionOptions = {}): FactSheet {
  const { context } = input;
  const { conversation } = withCheckedRoles(input.conversation);
  const gender = patientGender(conversation, context);
  const utterances = utterancesOf(conversation);
  const facts = numbered(
    [
      ...chartFacts(context),
      ...extraFacts(context.extra, gender, options),
      ...reasonDraft(utterances),
      ...drafts(conversation, utterances, gender, options),
    ],
    conversation,
  );
  return { facts, chiefComplaint: reasonForVisit(facts), gender };
}
