/**
 * Past medical, surgical and family history: the diagnoses and operations a visit names as the
 * patient's past ("I've had asthma since I was a kid", "a prior lobectomy on the left") or as a
 * relative's ("my mother had breast cancer" — the mother's, never the patient's), and a family
 * history question answered "no". The clinician's assessment and plan are not history: a
 * diagnosis made today is the assessment's.
 */
import { turnsSource, type DraftOf } from './draft.js';
import type { Exchange } from './exchanges.js';
import { answerOf } from './answers.js';
import { CONDITIONS, PROCEDURES, type HistoryEntry } from './lexicon/conditions.js';
import { relativeIn } from './lexicon/relatives.js';
import { PhraseMatcher } from './mentions.js';
import { mentionPolarity } from './polarity.js';
import { FIRST_PERSON, inHypothetical } from './problems.js';
import type { Utterance } from './utterances.js';

export type HistoryDraft = DraftOf<'history'>;
type Category = HistoryDraft['category'];

const CONDITION_MATCHER = new PhraseMatcher<HistoryEntry>(CONDITIONS, (entry) => entry.phrases);
const PROCEDURE_MATCHER = new PhraseMatcher<HistoryEntry>(PROCEDURES, (entry) => entry.phrases);

/** The family as a whole: "nobody in my family", "runs in the family". */
const WHOLE_FAMILY = /\b(?:in (?:my|the|your|his|her) family|family history|runs in the family|nobody in|no one in)\b/;

/** "high blood pressure" → "hypertension": a condition said in lay words, in chart words. */
export function chartName(said: string): string {
  const [mention] = CONDITION_MATCHER.find(said);
  return mention?.start === 0 && mention.end === said.length ? mention.entry.name : said;
}

interface Found {
  name: string;
  said: string;
  category: Category;
  start: number;
  end: number;
}

function historyIn(text: string): Found[] {
  return [
    ...CONDITION_MATCHER.find(text).map((mention) => ({ ...mention, category: 'medical' as const })),
    ...PROCEDURE_MATCHER.find(text).map((mention) => ({ ...mention, category: 'surgical' as const })),
  ].map((mention) => ({
    name: mention.entry.name,
    said: mention.said,
    category: mention.category,
    start: mention.start,
    end: mention.end,
  }));
}

function draft(
  found: Found,
  polarity: HistoryDraft['polarity'],
  relation: string | undefined,
  speaker: HistoryDraft['speaker'],
  turns: readonly number[],
): HistoryDraft {
  return {
    kind: 'history',
    text: found.said,
    category: relation === undefined ? found.category : 'family',
    item: found.name,
    polarity,
    subject: relation === undefined ? { type: 'patient' } : { type: 'relative', relation },
    speaker,
    source: turnsSource(turns),
  };
}

/** What the clinician decides today is the assessment's, not the history's. */
const isTodaysDecision = (utterance: Utterance) =>
  utterance.speaker === 'clinician' &&
  (utterance.phase === 'plan' || utterance.kind === 'assessment' || utterance.kind === 'plan');

/** Whose history a mention is: the relative named before it in its clause, unless "I" comes between. */
function relationBefore(text: string, position: number): string | undefined {
  const before = text.slice(0, position);
  const clause = before.slice(
    Math.max(before.lastIndexOf('.'), before.lastIndexOf(';'), before.lastIndexOf(' but ')) + 1,
  );
  const relation = relativeIn(clause) ?? (WHOLE_FAMILY.test(clause) ? 'family' : undefined);
  if (relation === undefined) return undefined;
  const lastRelative = Math.max(clause.lastIndexOf(' my '), clause.lastIndexOf('family'));
  return /(?<![\w'])(?:i|i have|i've|i had)(?![\w'])/.test(clause.slice(lastRelative + 4)) ? undefined : relation;
}

/** "Nobody in my family has …": the whole family, absent. */
const NOBODY = /\b(?:nobody|no one|none of)\b/;

function stated(utterance: Utterance): HistoryDraft[] {
  if (utterance.question || isTodaysDecision(utterance)) return [];
  // A companion's own history ("I get migraines too") is theirs.
  if (utterance.speaker === 'other' && FIRST_PERSON.test(utterance.text)) return [];
  return historyIn(utterance.text)
    .filter((found) => !inHypothetical(utterance.text, found.start))
    .map((found) => {
      const relation = relationBefore(utterance.text, found.start);
      const polarity =
        relation === 'family' && NOBODY.test(utterance.text.slice(0, found.start))
          ? 'absent'
          : mentionPolarity(utterance.text, found.start, found.end);
      return draft(found, polarity, relation, utterance.speaker, [utterance.turn]);
    });
}

/** "Any heart disease in the family?" "Not that I know of." — absent for the family. */
function answeredForFamily(exchange: Exchange): HistoryDraft[] {
  const { question } = exchange;
  if (!WHOLE_FAMILY.test(question.text)) return [];
  const { polarity } = answerOf(exchange.spoken, exchange.form);
  if (polarity !== 'absent') return [];
  return historyIn(question.text).map((found) =>
    draft(found, 'absent', 'family', exchange.answerSpeaker, [question.turn, exchange.answerTurn]),
  );
}

const keyOf = (fact: HistoryDraft) =>
  `${fact.category}:${fact.subject.type === 'relative' ? fact.subject.relation : fact.subject.type}:${fact.item}`;

export function historyFacts(utterances: readonly Utterance[], exchanges: readonly Exchange[]): HistoryDraft[] {
  const byKey = new Map<string, HistoryDraft>();
  for (const fact of [...utterances.flatMap(stated), ...exchanges.flatMap(answeredForFamily)]) {
    const kept = byKey.get(keyOf(fact));
    byKey.set(
      keyOf(fact),
      kept === undefined ? fact : { ...kept, source: turnsSource([...kept.source.turns, ...fact.source.turns]) },
    );
  }
  return [...byKey.values()];
}
