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
/**
 * Where a negation's scope ends; "no chest pain, just the cough" turns to what is there. A "no"
 * before a subject answers the question and negates nothing after it ("no I just have a headache",
 * as recognised speech runs the answer into the rest).
 */
const CLAUSE_BREAK =
  /\b(?:but|however|although|though|except|apart from|aside from|other than|yet|which|who|(?:just|only) (?:the|a|an|some|my|this|that)|no(?= (?:i|i'm|i've|it|it's|he|she|we|they|just|well)\b))\b|[;:.?!]/g;
/** After the mention: the thing is over ("the rash went away"). */
const RESOLVED_AFTER =
  /^\s*(?:has |have |had )?(?:went away|gone away|is gone|are gone|was gone|resolved|has resolved|cleared up|stopped)\b/;
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

/** "I don't have no pain": one negation said twice (negative concord). */
const CONCORD = /\b(?:not|never|no)\s+(?:[a-z]+\s+){0,2}(?:no|none|nothing|any)\b/g;

/** The negations in `scope`, pseudo-negations aside and negative concord counted once. */
function negations(scope: string): number {
  const cleaned = scope.replace(new RegExp(PSEUDO_NEGATION.source, 'g'), ' ').replace(CONCORD, ' not ');
  return cleaned.match(NEGATION)?.length ?? 0;
}

/**
 * The negations that reach a mention: those of the last comma-separated item that has any. A list
 * negates item by item ("no numbness, no tingling" denies both; "no fever, chills" both), so only
 * negations said together within one item cancel ("I can't say I haven't had headaches").
 */
function negationsReaching(scope: string): number {
  const counts = scope.split(',').map(negations);
  return counts.findLast((count) => count > 0) ?? 0;
}

/**
 * The polarity of the mention at [start, end) of a cleaned, lower-case statement. An odd number of
 * negations in its clause before it (within a few words) makes it absent, an even number present
 * ("I can't say I haven't had headaches"); a hedge makes it uncertain.
 */
export function mentionPolarity(text: string, start: number, end: number): FactPolarity {
  const from = clauseStart(text, start);
  const before = text.slice(from, start).split(/\s+/).filter(Boolean).slice(-MAX_SCOPE_WORDS).join(' ');
  const negated = negationsReaching(before) % 2 === 1 || RESOLVED_AFTER.test(text.slice(end));
  if (HEDGE.test(text.slice(from, start)) && !negated) return 'uncertain';
  return negated ? 'absent' : 'present';
}
