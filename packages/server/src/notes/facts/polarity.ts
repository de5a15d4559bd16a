/**
 * Whether something said is present, absent or uncertain: negation scope in a statement (in the
 * manner of NegEx: a trigger before the mention, within its clause), pseudo-negations that negate
 * nothing ("no change in"), double negatives, hedges, and the answers patients give to yes/no
 * questions, self-corrections included ("no… well, occasionally" is present, occasional).
 */
import type { FactPolarity } from '@chartwright/protocol';

/** Words and phrases that negate what follows them in the clause. */
const NEGATION =
  /\b(?:no|not|never|without|denies|denied|deny|denying|none|nor|neither|negative for|free of|absence of|rule[sd]? out|haven't|hasn't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|can't|cannot)\b/g;
/** Negations that negate nothing after them. */
const PSEUDO_NEGATION =
  /\b(?:not only|no change|no changes|no increase|no worse|not worse|not sure|no longer sure|not just|no doubt|not certain|no idea|nothing but|not bad|no problem with|not too bad)\b/;
/** Where a negation's scope ends. */
const CLAUSE_BREAK = /\b(?:but|however|although|though|except|apart from|aside from|other than|yet|which|who|although)\b|[;:.?!]/g;
/** After the mention: the thing is over ("the rash went away"). */
const RESOLVED_AFTER = /^\s*(?:has |have |had )?(?:went away|gone away|is gone|are gone|was gone|resolved|has resolved|cleared up|stopped)\b/;
/** Doubt about the whole statement. */
const HEDGE =
  /\b(?:not sure|unsure|i don't know|i do not know|don't remember|do not remember|can't remember|cannot remember|might|maybe|possibly|perhaps|i wonder|not certain|hard to say|could be|may have)\b/;
/** Negation words in the few words after the mention that take it back ("chest pain, no"). */
const MAX_SCOPE_WORDS = 8;

function clauseStart(text: string, position: number): number {
  let start = 0;
  CLAUSE_BREAK.lastIndex = 0;
  for (let match = CLAUSE_BREAK.exec(text); match !== null && match.index < position; match = CLAUSE_BREAK.exec(text)) {
    start = match.index + match[0].length;
  }
  return start;
}

/** The negations in `scope`, pseudo-negations aside. */
function negations(scope: string): number {
  const cleaned = scope.replace(new RegExp(PSEUDO_NEGATION.source, 'g'), ' ');
  return cleaned.match(NEGATION)?.length ?? 0;
}

/**
 * The polarity of the mention at [start, end) of a cleaned, lower-case statement. An odd number of
 * negations in its clause before it (within a few words) makes it absent, an even number present
 * ("I can't say I haven't had headaches"); a hedge makes it uncertain.
 */
export function mentionPolarity(text: string, start: number, end: number): FactPolarity {
  const from = clauseStart(text, start);
  const before = text.slice(from, start).split(/\s+/).filter(Boolean).slice(-MAX_SCOPE_WORDS).join(' ');
  const negated = negations(before) % 2 === 1 || RESOLVED_AFTER.test(text.slice(end));
  if (HEDGE.test(text.slice(from, start)) && !negated) return 'uncertain';
  return negated ? 'absent' : 'present';
}

export type AnswerPolarity = FactPolarity | null;

const NEGATIVE_ANSWER =
  /^(?:no|nope|nah|never|none|negative|not really|not that i know of|not that i(?:'m| am) aware of|not at all|nothing|i do not|i don't|i did not|i didn't|i have not|i haven't|i have never|i've never|i am not|i'm not|i was not|i wasn't|i never|no sir|no ma'am)\b/;
const POSITIVE_ANSWER =
  /^(?:yes|yeah|yep|yup|uh-huh|mm-hmm|mhm|sure|correct|right|definitely|absolutely|i do|i did|i have|i am|i'm|i was|i get|i got|a little|a bit|sometimes|occasionally|once in a while|every once in a while|now and then|here and there|kind of|sort of|some|a few times|a couple (?:of )?times|once or twice|on and off|off and on)\b/;
const UNCERTAIN_ANSWER =
  /^(?:i(?:'m| am) not sure|not sure|i don't know|i do not know|maybe|possibly|i can't remember|i cannot remember|i don't remember|i do not remember|hard to say|i guess|i think so|i don't think so|i do not think so)\b/;
/** A turn back from a first answer ("no… well, occasionally"). */
const CORRECTION =
  /\b(?:well|actually|wait|except|but|although|though|i mean|now that you mention it|come to think of it)\b[\s,.]*(?:yes|yeah|sometimes|occasionally|once in a while|every once in a while|now and then|here and there|a little|a bit|some|a few times|a couple (?:of )?times|once or twice|on and off|off and on|i do|i have|i did|there is|there was|it does|lately)\b/;
/** How often, when the answer says. */
const FREQUENCY =
  /\b(?:sometimes|occasionally|once in a while|every once in a while|now and then|here and there|a few times|a couple (?:of )?times|once or twice|on and off|off and on|all the time|constantly|every day|daily|at night|in the morning)\b/;

export interface Answer {
  polarity: AnswerPolarity;
  /** How often, when the answer says ("occasionally"). */
  timing?: string;
  /** The answer says more than yes or no. */
  detailed: boolean;
}

/** What an answer to a yes/no question says, from its cleaned, lower-case text. */
export function answerOf(text: string): Answer {
  const answer = text.replace(/^[\s,.]+/, '');
  const timing = FREQUENCY.exec(answer)?.[0];
  const detailed = answer.split(/\s+/).filter(Boolean).length > 4;
  const withTiming = (polarity: AnswerPolarity): Answer =>
    timing === undefined ? { polarity, detailed } : { polarity, timing, detailed };
  // "I don't think so" is a no said softly: absent, as clinicians chart it.
  if (/^i (?:don't|do not) think so\b/.test(answer)) return { polarity: 'absent', detailed };
  if (/^i think so\b/.test(answer)) return withTiming('present');
  if (NEGATIVE_ANSWER.test(answer)) return withTiming(CORRECTION.test(answer) ? 'present' : 'absent');
  if (UNCERTAIN_ANSWER.test(answer)) return withTiming('uncertain');
  if (POSITIVE_ANSWER.test(answer)) return withTiming('present');
  return { polarity: null, detailed };
}

/**
 * What an answering turn says, sentence by sentence: a first "no" taken back by a later sentence
 * ("No. Well, occasionally.") is a yes.
 */
export function answerOfTurn(sentences: readonly string[]): Answer {
  const [first = '', ...rest] = sentences;
  const answer = answerOf(first);
  if (answer.polarity !== 'absent') return answer;
  const correction = rest.map(answerOf).find((later) => later.polarity === 'present');
  if (correction === undefined) return answer;
  return { ...correction, detailed: true };
}
