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
    // "I smoke weed" is cannabis, not tobacco.
    said: /\b(?:smok(?:e|es|ed|er|ing)(?! (?:weed|pot|marijuana|cannabis|joints?|a joint))|cigarettes?|cigars?|tobacco|chew(?:ing)? tobacco|dip|vap(?:e|es|ed|ing)|packs? (?:a|per) day|pack-year)\b/,
    asked: /\b(?:smoke|smoked|smoker|smoking|tobacco|cigarettes?|vape|vaping)\b/,
  },
  {
    item: 'alcohol use',
    // "She drinks a lot" of a toddler is fluids: drinking is alcohol only with its word or its pattern.
    said: /\b(?:alcohol|beers?|wine|liquor|cocktails?|whiske?y|vodka|booze|drinks? (?:a|per) (?:day|week|night)|drink(?:s|ing)? (?:socially|occasionally|heavily|daily|on (?:the )?weekends|every (?:day|night)|once in a while)|(?:social|heavy|occasional) drinker)\b/,
    asked: /\b(?:drink|drinking|alcohol)\b/,
  },
  // Cannabis is charted by name: it is legal in many places and asked about on its own.
  {
    item: 'cannabis use',
    said: /\b(?:marijuana|cannabis|weed|thc|edibles|(?:smoke|smokes|smoked|smoking) pot)\b/,
    asked: /\b(?:marijuana|cannabis|weed)\b/,
  },
  {
    item: 'recreational drug use',
    said: /\b(?:cocaine|heroin|meth|methamphetamine|opioids|recreational drugs?|illicit drugs?|street drugs?|drugs recreationally)\b/,
    asked: /\b(?:drugs|recreational|illicit)\b/,
  },
];

const FORMER = /\b(?:quit|stopped|used to|gave up|former|no longer|not anymore|years ago|in the past)\b/;
/** When a former habit ended: "quit 10 years ago", "stopped in 2015". */
const ENDED =
  /\b(quit|stopped|gave up)\b(?: (?:smoking|drinking|it|them|cigarettes))? (?:(?:about|around|like|maybe) )?((?:\d+|a few|a couple of) (?:years?|months?|weeks?) ago|in \d{4})/;
const AMOUNT =
  /\b(?:\d+(?:\.\d+)?|a|one|two|half a|a couple of|a few) (?:packs?|cigarettes?|drinks?|beers?|glass(?:es)? of wine|glasses|shots?|joints?)(?: (?:a|per|every) (?:day|week|night|weekend|month))?(?: for \d+ years)?|\b(?:socially|occasionally|on weekends|on the weekends|every (?:day|night)|daily|rarely|once in a while|a few times a (?:week|month)|\d+ pack-years?)\b/;
/** A count without the habit's word, as in an answer to "how much do you drink?": "4 or 5 every night". */
const COUNT = /\b\d+(?: (?:or|to) \d+)? (?:a|per|every|each) (?:day|week|night|weekend|month)\b/;
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
    // "worse when I walk up stairs" is a symptom's modifier, not exercise; a habit has a measure
    // ("run about 5 to 6 miles a day"), where "sometimes I walk there" has none.
    /(?<!\b(?:when|if|after|because|while|until) )\b(?:i|she|he) (?:exercise|exercises|walk|walks|run|runs|swim|swims|go to the gym|goes to the gym|bike|bikes)\b(?: [a-z0-9]+){0,6}? (?:miles?|minutes|hours?|laps|times (?:a|per) (?:day|week)|(?:a|per|every) (?:day|week|morning|evening)|daily|regularly|most days)\b(?: (?:a|per|every) (?:day|week))?/,
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
  const ended = ENDED.exec(text);
  const details = [
    FORMER.test(text) ? 'former' : undefined,
    ended === null ? undefined : `${ended[1] ?? 'quit'} ${ended[2] ?? ''}`,
    AMOUNT.exec(text)?.[0],
  ];
  return withDetails(habit.item, details);
}

function withDetails(item: string, details: readonly (string | undefined)[]): string {
  const said = details.filter((part): part is string => part !== undefined && part !== '');
  return said.length === 0 ? item : `${item}: ${said.join(', ')}`;
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
  // A companion's own count ("more like 4 or 5 every night") is charted as theirs, beside the patient's.
  const counted = exchange.added.flatMap((statement) => {
    const count = COUNT.exec(statement.text)?.[0] ?? AMOUNT.exec(statement.text)?.[0];
    if (count === undefined || statement.question) return [];
    return [social(withDetails(habit.item, [count]), 'present', statement.speaker, [question.turn, statement.turn])];
  });
  if (exchange.answer.some((statement) => habit.said.test(statement.text) && !statement.question)) return counted;
  const answer = exchange.answer.map((statement) => statement.text).join(' . ');
  // "Do you smoke?" "I quit ten years ago.": a former habit, with when it ended.
  if (ENDED.test(answer)) {
    return [
      social(habitItem(habit, answer), 'present', exchange.answerSpeaker, [question.turn, exchange.answerTurn]),
      ...counted,
    ];
  }
  const { polarity, timing } = answerOf(exchange.spoken, exchange.form);
  if (polarity === null) return counted;
  const item = withDetails(habit.item, [timing]);
  return [social(item, polarity, exchange.answerSpeaker, [question.turn, exchange.answerTurn]), ...counted];
}

export function socialFacts(utterances: readonly Utterance[], exchanges: readonly Exchange[]): SocialDraft[] {
  const drafts = [
    ...utterances.filter((utterance) => utterance.phase === 'history').flatMap(stated),
    ...exchanges.flatMap(answered),
  ];
  // One item per habit, with every detail said of it; a companion's account is kept apart, as it may differ.
  const byItem = new Map<string, SocialDraft>();
  for (const next of drafts) {
    const [habit = next.item, detail] = next.item.split(': ');
    const key = `${habit}:${next.speaker === 'other' ? 'companion' : 'patient'}`;
    const kept = byItem.get(key);
    if (kept === undefined) {
      byItem.set(key, next);
      continue;
    }
    const keptDetails = kept.item.split(': ')[1]?.split(', ') ?? [];
    const more = (detail?.split(', ') ?? []).filter((part) => !keptDetails.includes(part));
    const item = withDetails(habit, [...keptDetails, ...more]);
    // A habit said outright wins over a bare answer's polarity ("no" then "I quit 10 years ago").
    const polarity = kept.polarity === 'present' || next.polarity === 'present' ? 'present' : kept.polarity;
    byItem.set(key, {
      ...kept,
      item,
      text: item,
      polarity,
      source: turnsSource([...kept.source.turns, ...next.source.turns]),
    });
  }
  return [...byItem.values()];
}
