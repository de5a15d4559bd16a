/**
 * What an answer to a clinician's question says about what was asked: yes, no, unsure, or a
 * count or frequency (which is a yes). Read from the whole answering turn as said (fillers kept:
 * "mm-hmm" is a yes), with the turns patients take: double negatives ("I can't say I haven't"),
 * corrections ("yes. oh wait, no", "twice. no, three times"), hedges ("maybe once or twice" is a
 * yes, "I'm not sure" is not, nor a "maybe" the patient then doubts), and the form of the question
 * (a "no" to "is the rash gone?" means the rash is there).
 */
import type { FactPolarity } from '@chartwright/protocol';

export type QuestionForm = 'yes_no' | 'negative' | 'resolution' | 'presupposing';

export interface Answer {
  polarity: FactPolarity | null;
  /** How often or how many, when the answer says ("occasionally", "3 times"). */
  timing?: string;
}

/** `hedge`: a guessed yes ("maybe"), a yes unless the answer goes on to doubt or deny it. */
type Mark = 'yes' | 'no' | 'unsure' | 'some' | 'hedge';

const MARKS: readonly (readonly [RegExp, Mark])[] = [
  [/^(?:i (?:do|did|have|am|was) not think so|i do not believe so)\b/, 'no'],
  [
    /^(?:i am not sure|i'm not sure|not sure|i do not know|i don't know|hard to say|i can not remember|i cannot remember|i do not remember|i can not say|who knows|no idea|i could not tell you|not certain|i am unsure|unsure)\b/,
    'unsure',
  ],
  [/^(?:maybe|possibly|perhaps|probably|i guess|i think so|kind of|sort of)\b(?! not)/, 'hedge'],
  [
    /^(?:rarely|sometimes|occasionally|once in a while|every once in a while|now and then|here and there|on and off|off and on|a little|a bit|a few times|a couple(?: of)? times|once or twice|once|twice|\d+ (?:times|or \d+)|some|most (?:days|nights|mornings)|every (?:day|night|morning)|all the time|a lot|constantly|usually|mostly|only (?:when|if|at)|just (?:when|at)|at night|in the mornings?|years|months|weeks|since)\b/,
    'some',
  ],
  [
    /^(?:no|nope|nah|never|none|negative|not really|not that i know of|not that i have noticed|not that i've noticed|not that i am aware of|not at all|not anymore|nothing|fine|good|it is fine|that is fine|it is good|that is good|no problems?|no issues?|all good|normal|i do not|i did not|i have not|i have never|i am not|i was not|i never|it does not|it did not|it is not|he does not|she does not|he has not|she has not)\b/,
    'no',
  ],
  [
    /^(?:yes|yeah|yep|yup|uh-huh|mm-hmm|mhm|sure|correct|right|definitely|absolutely|i do|i did|i have|i am|i was|it does|it did|it is|he does|she does|he did|she did|he is|she is|they do|unfortunately)\b/,
    'yes',
  ],
];

/** A later clause that takes back a guessed yes, besides an unsure one ("I don't think I've had it"). */
const DOUBTED = /^i (?:do|did) not think (?:i|so|that)\b/;

/** Words a clause runs on with, which say nothing of the answer ("so I'm not sure"). */
const RUN_ON = /^(?:so|and|um|uh)\s+/;

/** Turns a first answer around: what comes after it decides. */
const CORRECTION = /^(?:wait|oh wait|actually|sorry|i mean|well|hold on|come to think of it|now that you mention it)\b/;

/**
 * How an answer judges a function asked about ("how's your sleep?", "is she eating?"): a trouble
 * word is the problem, a "fine" its absence.
 */
export function functionAnswer(sentences: readonly string[]): FactPolarity | null {
  const text = sentences.join(' . ');
  if (
    /\b(?:not (?:much|well|great|good|really|a lot)|poor(?:ly)?|bad|terrible|awful|trouble|wake up|waking up|can not|could not|barely|hardly|worse)\b/.test(
      text,
    )
  ) {
    return 'present';
  }
  return /^(?:fine|good|great|well|okay|ok|normal|pretty good|no problems?|not bad|it is fine|it is good)\b/.test(text)
    ? 'absent'
    : null;
}

/** Patients' double negatives that mean yes. */
const DOUBLE_NEGATIVE =
  /\b(?:can ?not say (?:that )?i (?:have not|have never|do not)|would not say (?:it|i|that) (?:never|does not|do not)|it is not that (?:i|it) (?:do not|does not|can not)|not that (?:i|it) (?:do not|does not)|not without|not unless|never a day (?:that )?i am not|can ?not remember a time (?:when )?i (?:did not|was not|have not))\b/;
/** Negative concord: one no, said twice ("I don't have no pain"). */
const NEGATIVE_CONCORD = /\b(?:do not have no|not none|never no|do not get no|ain't got no)\b/;

/** The marks of an answer's clauses in order, with each clause's text. */
interface Marked {
  mark: Mark;
  at: number;
  corrected: boolean;
  clause: string;
}

function marks(text: string): Marked[] {
  const found: Marked[] = [];
  const clauses = text.split(/\s*[,.;!?]\s*/).filter((clause) => clause !== '');
  let corrected = false;
  clauses.forEach((clause, index) => {
    let rest = clause.replace(RUN_ON, '');
    if (CORRECTION.test(rest)) {
      corrected = found.length > 0;
      rest = rest.replace(CORRECTION, '').trim();
    }
    const mark = MARKS.find(([pattern]) => pattern.test(rest))?.[1];
    if (mark === undefined) return;
    found.push({ mark, at: index, corrected, clause: rest });
    corrected = false;
  });
  return found;
}

/** The mark the answer ends on: a correction overrides, and "no, 3 times" corrects a count, not a yes. */
function finalMark(found: readonly Marked[]): Marked | null {
  if (found.length === 0) return null;
  let result = found[0] ?? null;
  for (let index = 1; index < found.length; index++) {
    const current = found[index];
    const previous = found[index - 1];
    if (current === undefined || previous === undefined) continue;
    const countCorrection = previous.mark === 'no' && current.mark === 'some' && current.at === previous.at + 1;
    if (current.corrected || countCorrection) result = current;
    else if (result?.mark === 'no' && current.mark === 'some' && index === 1 && previous.at === 0) result = current;
  }
  // "Maybe. I don't think I've ever had it, so I'm not sure": a guess the patient then doubts. (Not
  // any later no: "maybe once or twice, I didn't think much of it" is still a yes.)
  const guess = result;
  if (
    guess?.mark === 'hedge' &&
    found.some((later) => later.at > guess.at && (later.mark === 'unsure' || DOUBTED.test(later.clause)))
  ) {
    return { ...guess, mark: 'unsure' };
  }
  return result;
}

const TIMING =
  /\b(?:rarely|sometimes|occasionally|once in a while|every once in a while|now and then|here and there|on and off|off and on|a few times|a couple(?: of)? times|once or twice|twice(?! (?:a|per) day| daily)|\d+ times(?! (?:a|per) day)|most (?:days|nights|mornings)|every (?:day|night|morning)|at night|in the mornings?|all the time)\b/;

export function answerOf(sentences: readonly string[], form: QuestionForm): Answer {
  const text = sentences.join(' . ');
  const final = NEGATIVE_CONCORD.test(text) ? null : finalMark(marks(text));
  const timing = TIMING.exec(final?.clause ?? '')?.[0] ?? TIMING.exec(text)?.[0];
  const withTiming = (polarity: FactPolarity | null): Answer =>
    timing === undefined || polarity !== 'present' ? { polarity } : { polarity, timing };
  if (DOUBLE_NEGATIVE.test(text)) return withTiming('present');
  const marked = NEGATIVE_CONCORD.test(text) ? 'no' : (final?.mark ?? null);
  const mark = marked === 'hedge' ? 'some' : marked;
  switch (form) {
    case 'resolution':
      // "Is the rash gone?" — "no": the rash is there.
      if (mark === 'yes') return { polarity: 'absent' };
      if (mark === 'no' || mark === 'some') return withTiming('present');
      return { polarity: mark === 'unsure' ? 'uncertain' : null };
    case 'negative':
      // "No more falls?" — "no": none; "actually yes, one": one.
      if (mark === 'no' || (mark === 'yes' && !/\b(?:one|once|twice|\d+|some|a few|a couple)\b/.test(text))) {
        return { polarity: 'absent' };
      }
      return mark === 'unsure' ? { polarity: 'uncertain' } : withTiming(mark === null ? null : 'present');
    case 'presupposing':
      // "How long have you had the cough?" — anything but a no says it is there.
      if (mark === 'no') return { polarity: 'absent' };
      return mark === 'unsure' ? { polarity: 'uncertain' } : withTiming('present');
    case 'yes_no':
      if (mark === 'yes' || mark === 'some') return withTiming('present');
      if (mark === 'no') return { polarity: 'absent' };
      return { polarity: mark === 'unsure' ? 'uncertain' : null };
  }
}
