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
import { conditionsIn, proceduresIn } from './condition-mentions.js';
import { relationNamed, relativeIn } from './lexicon/relatives.js';
import { mentionPolarity } from './polarity.js';
import { FIRST_PERSON, inHypothetical } from './problems.js';
import type { Utterance } from './utterances.js';

export type HistoryDraft = DraftOf<'history'>;
type Category = HistoryDraft['category'];

/** The family as a whole: "nobody in my family", "runs in the family". */
const WHOLE_FAMILY = /\b(?:in (?:my|the|your|his|her) family|family history|runs in the family|nobody in|no one in)\b/;

/** "high blood pressure" → "hypertension": a condition said in lay words, in chart words. */
export function chartName(said: string): string {
  const [mention] = conditionsIn(said);
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
    ...conditionsIn(text).map((mention) => ({ ...mention, category: 'medical' as const })),
    ...proceduresIn(text).map((mention) => ({ ...mention, category: 'surgical' as const })),
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

/** "My sister has the same thing", "my son has it too": the condition just talked about is the relative's. */
const SHARED =
  /\b(?:both )?(?:my|his|her|their|our) (?:[a-z]+ )?([a-z]+)(?:'s)? (?:(?:also|too|both|does|did|do|not|never|has|have) ){0,2}(?:has|had|have|gets|got|get|suffers from|deals with) (?:it|that|them|this|the same(?: thing| problem| condition| issue)?)\b/;
/** How far back (in statements) "it" may reach for its condition. */
const SHARED_REACH = 3;

function sharedWithRelative(utterances: readonly Utterance[], index: number): HistoryDraft[] {
  const utterance = utterances[index];
  if (utterance === undefined || utterance.question || utterance.speaker === 'clinician') return [];
  const shared = SHARED.exec(utterance.text);
  const relation = shared === null ? undefined : relationNamed(shared[1] ?? '');
  if (shared === null || relation === undefined || historyIn(utterance.text).length > 0) return [];
  // Only the relative's own words count: "I have never had that, my father has" is the father's.
  const polarity = mentionPolarity(shared[0], shared[0].length - 1, shared[0].length);
  for (let back = index - 1; back >= Math.max(0, index - SHARED_REACH); back--) {
    const earlier = utterances[back];
    const named =
      earlier === undefined
        ? undefined
        : historyIn(earlier.text)
            .sort((a, b) => a.start - b.start)
            .at(-1);
    if (earlier !== undefined && named !== undefined)
      return [draft(named, polarity, relation, utterance.speaker, [earlier.turn, utterance.turn])];
  }
  return [];
}

/** "How's your asthma been?": the clinician takes the condition as the patient's own. */
function presupposed(utterance: Utterance): HistoryDraft[] {
  if (!utterance.question || utterance.speaker !== 'clinician' || utterance.phase !== 'history') return [];
  return historyIn(utterance.text)
    .filter(
      (found) => found.category === 'medical' && /\byour (?:[a-z]+ )?$/.test(utterance.text.slice(0, found.start)),
    )
    .map((found) => draft(found, 'present', undefined, utterance.speaker, [utterance.turn]));
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

/** Questions about the whole of a past history: a "no" to them is charted as none. */
export const WHOLE_HISTORY_ITEMS = { surgical: 'surgeries', medical: 'medical problems' } as const;

const WHOLE_HISTORY: readonly (readonly [Category, string, RegExp])[] = [
  // Not "any back surgeries?" or "surgeries on your abdomen?": a "no" to those denies only them.
  [
    'surgical',
    WHOLE_HISTORY_ITEMS.surgical,
    /\b(?:(?:any|ever had|previous|prior|past|other) (?:surgery|surgeries|operations?)(?! on| to| for| of)|surgical history)\b/,
  ],
  [
    'medical',
    WHOLE_HISTORY_ITEMS.medical,
    /\b(?:(?:medical|health) (?:problems|conditions|issues|history)|(?:chronic|long-term) (?:conditions|illnesses|problems))\b/,
  ],
];

/** "Any surgeries?" "None." — no past surgical history, the answer's own words aside. */
function answeredForPatient(exchange: Exchange): HistoryDraft[] {
  const { question } = exchange;
  if (question.phase !== 'history' || WHOLE_FAMILY.test(question.text) || relativeIn(question.text) !== undefined)
    return [];
  const asked = WHOLE_HISTORY.find(([, , pattern]) => pattern.test(question.text));
  if (asked === undefined || exchange.answer.some((statement) => historyIn(statement.text).length > 0)) return [];
  const { polarity } = answerOf(exchange.spoken, exchange.form);
  if (polarity !== 'absent') return [];
  const [category, item] = asked;
  return [
    {
      kind: 'history',
      text: item,
      category,
      item,
      polarity: 'absent',
      subject: { type: 'patient' },
      speaker: exchange.answerSpeaker,
      source: turnsSource([question.turn, exchange.answerTurn]),
    },
  ];
}

const keyOf = (fact: HistoryDraft) =>
  `${fact.category}:${fact.subject.type === 'relative' ? fact.subject.relation : fact.subject.type}:${fact.item}`;

export function historyFacts(utterances: readonly Utterance[], exchanges: readonly Exchange[]): HistoryDraft[] {
  const byKey = new Map<string, HistoryDraft>();
  const drafts = [
    ...utterances.flatMap(stated),
    ...utterances.flatMap((_, index) => sharedWithRelative(utterances, index)),
    ...utterances.flatMap(presupposed),
    ...exchanges.flatMap(answeredForFamily),
    ...exchanges.flatMap(answeredForPatient),
  ];
  for (const fact of drafts) {
    const kept = byKey.get(keyOf(fact));
    byKey.set(
      keyOf(fact),
      kept === undefined ? fact : { ...kept, source: turnsSource([...kept.source.turns, ...fact.source.turns]) },
    );
  }
  return [...byKey.values()];
}
