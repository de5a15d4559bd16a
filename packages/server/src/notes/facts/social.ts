/**
 * Social history: tobacco, alcohol and other substances (with amounts, and whether in the past),
 * work, who the patient lives with, exercise. Said outright, or as the answer to "do you smoke?".
 * "I drink occasionally" is drinking, present — never "denies alcohol".
 */
import type { FactPolarity, FactSpeaker } from '@chartwright/protocol';

import { turnsSource, type DraftOf } from './draft.js';
import { answerOf } from './answers.js';
import type { Exchange } from './exchanges.js';
import { mentionPolarity } from './polarity.js';
import type { Utterance } from './utterances.js';

export type SocialDraft = DraftOf<'history'>;

interface Habit {
  item: string;
  /** What says the patient has the habit. */
  said: RegExp;
  /** What a question about it asks. */
  asked: RegExp;
}

const HABITS: readonly Habit[] = [
  {
    item: 'tobacco use',
    said: /\b(?:smok(?:e|es|ed|er|ing)|cigarettes?|cigars?|tobacco|chew(?:ing)? tobacco|dip|vap(?:e|es|ed|ing)|packs? (?:a|per) day|pack-year)\b/,
    asked: /\b(?:smoke|smoking|tobacco|cigarettes?|vape|vaping)\b/,
  },
  {
    item: 'alcohol use',
    said: /\b(?:drink(?:s|ing)?|alcohol|beers?|wine|liquor|cocktails?|drinks? (?:a|per) (?:day|week|night))\b/,
    asked: /\b(?:drink|drinking|alcohol)\b/,
  },
  {
    item: 'recreational drug use',
    said: /\b(?:marijuana|cannabis|weed|pot|cocaine|heroin|meth|opioids|recreational drugs?|illicit drugs?|street drugs?|drugs recreationally)\b/,
    asked: /\b(?:drugs|marijuana|cannabis|recreational|illicit)\b/,
  },
];

const FORMER = /\b(?:quit|stopped|used to|gave up|former|no longer|not anymore|years ago|in the past)\b/;
const AMOUNT =
  /\b(?:\d+(?:\.\d+)?|a|one|two|half a|a couple of|a few) (?:packs?|cigarettes?|drinks?|beers?|glass(?:es)? of wine|glasses|shots?|joints?)(?: (?:a|per|every) (?:day|week|night|weekend|month))?|\b(?:socially|occasionally|on weekends|on the weekends|every (?:day|night)|daily|rarely|once in a while|a few times a (?:week|month)|\d+ pack-years?)\b/;
/** Drinking water, coffee or soda is not alcohol. */
const NOT_ALCOHOL = /\b(?:water|coffee|tea|soda|juice|milk|fluids|pop|smoothies?)\b/;

const OTHER_ITEMS: readonly (readonly [RegExp, (match: RegExpExecArray) => string])[] = [
  [
    /\b(?:i|she|he) (?:work|works|worked) (as|at|in|for) ((?:a |an |the )?[a-z]+(?: [a-z]+){0,3})/,
    (m) => `works ${m[1] ?? 'as'} ${m[2] ?? ''}`,
  ],
  [
    /\b(?:i am|i'm|she is|he is) (?:a |an )((?:retired )?(?:teacher|nurse|doctor|lawyer|engineer|driver|truck driver|mechanic|carpenter|electrician|plumber|construction worker|accountant|student|firefighter|police officer|chef|cook|farmer|secretary|manager|cashier|waitress|waiter|programmer|salesman|pilot))\b/,
    (m) => `works as a ${m[1] ?? ''}`,
  ],
  [/\b(?:i am|i'm|she is|he is) retired\b/, () => 'retired'],
  [
    /\b(?:i|she|he) (?:live|lives|living) (?:alone|by (?:myself|herself|himself)|with (?:my |her |his )?[a-z]+(?: and (?:my |her |his )?[a-z]+)?)/,
    (m) =>
      m[0]
        .replace(/^(?:i|she|he) /, '')
        .replace(/\bmy\b/g, 'the patient’s')
        .replace(/^living\b/, 'lives'),
  ],
  [
    // "worse when I walk up stairs" is a symptom's modifier, not exercise.
    /(?<!\b(?:when|if|after|because|while|until) )\b(?:i|she|he) (?:exercise|exercises|walk|walks|run|runs|swim|swims|go to the gym|goes to the gym|bike|bikes)\b(?: [a-z0-9]+){0,4}/,
    (m) => m[0].replace(/^(?:i|she|he) /, ''),
  ],
];

function social(item: string, polarity: FactPolarity, speaker: FactSpeaker, turns: readonly number[]): SocialDraft {
  return {
    kind: 'history',
    category: 'social',
    text: item,
    item,
    polarity,
    subject: { type: 'patient' },
    speaker,
    source: turnsSource(turns),
  };
}

/** "tobacco use: former, quit 10 years ago", "alcohol use: occasionally". */
function habitItem(habit: Habit, text: string): string {
  const amount = AMOUNT.exec(text)?.[0];
  const former = FORMER.test(text);
  const detail = [former ? 'former' : undefined, amount].filter((part) => part !== undefined).join(', ');
  return detail === '' ? habit.item : `${habit.item}: ${detail}`;
}

function stated(utterance: Utterance): SocialDraft[] {
  if (utterance.question) return [];
  const drafts: SocialDraft[] = [];
  for (const habit of HABITS) {
    const match = habit.said.exec(utterance.text);
    if (match === null) continue;
    if (habit.item === 'alcohol use' && NOT_ALCOHOL.test(utterance.text)) continue;
    const polarity = mentionPolarity(utterance.text, match.index, match.index + match[0].length);
    // "I quit smoking": a former habit is a present history item, not a denial.
    const item = habitItem(habit, utterance.text);
    drafts.push(social(item, item.includes('former') ? 'present' : polarity, utterance.speaker, [utterance.turn]));
  }
  if (utterance.speaker === 'patient') {
    for (const [pattern, item] of OTHER_ITEMS) {
      const match = pattern.exec(utterance.text);
      if (match !== null) drafts.push(social(item(match).trim(), 'present', utterance.speaker, [utterance.turn]));
    }
  }
  return drafts;
}

function answered(exchange: Exchange): SocialDraft[] {
  const { question } = exchange;
  if (question.phase !== 'history') return [];
  const habit = HABITS.find((candidate) => candidate.asked.test(question.text));
  if (habit === undefined) return [];
  if (exchange.answer.some((statement) => habit.said.test(statement.text) && !statement.question)) return [];
  const { polarity, timing } = answerOf(exchange.spoken, exchange.form);
  if (polarity === null) return [];
  const item = timing === undefined ? habit.item : `${habit.item}: ${timing}`;
  return [social(item, polarity, exchange.answerSpeaker, [question.turn, exchange.answerTurn])];
}

export function socialFacts(utterances: readonly Utterance[], exchanges: readonly Exchange[]): SocialDraft[] {
  const drafts = [
    ...utterances.filter((utterance) => utterance.phase === 'history').flatMap(stated),
    ...exchanges.flatMap(answered),
  ];
  const byItem = new Map<string, SocialDraft>();
  for (const next of drafts) {
    const key = next.item.split(':')[0] ?? next.item;
    const kept = byItem.get(key);
    // The more specific item (with an amount or "former") is the one kept.
    const lead = kept === undefined || next.item.length > kept.item.length ? next : kept;
    byItem.set(
      key,
      kept === undefined ? next : { ...lead, source: turnsSource([...kept.source.turns, ...next.source.turns]) },
    );
  }
  return [...byItem.values()];
}
