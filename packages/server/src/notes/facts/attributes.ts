/**
 * What a statement says about a symptom besides its name: how long, since when, how bad, when it
 * happens, what brings it on or eases it, where and on which side. Read from the cleaned,
 * lower-case statement with its numbers as digits ("for 2 weeks").
 */
import { PhraseMatcher } from './mentions.js';
import { BODY_PARTS, SIDES, type BodyPart } from './lexicon/anatomy.js';

export interface SymptomAttributes {
  duration?: string;
  onset?: string;
  severity?: string;
  timing?: string;
  location?: string;
  laterality?: 'left' | 'right' | 'bilateral';
  modifiers: string[];
}

const AMOUNT = String.raw`(?:\d+(?:\.\d+)?|a|an|one|a couple of|a couple|a few|several|couple of|few)`;
const UNIT = String.raw`(?:minutes?|hours?|days?|nights?|weeks?|months?|years?)`;

const DURATION = new RegExp(
  String.raw`\bfor (?:about |around |roughly |almost |nearly |over |more than |the (?:past|last) )?(?:${AMOUNT} )?${UNIT}\b|\bfor (?:a (?:while|long time)|the (?:past|last) (?:${AMOUNT} )?${UNIT})\b`,
);
const ONSET = new RegExp(
  String.raw`\b(?:started|began|begun|came on|first noticed|noticed it|developed)\b[^,.;]{0,30}?\b(?:${AMOUNT} ${UNIT} ago|yesterday|last (?:night|week|month|year)|this (?:morning|week)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|after [^,.;]{3,30})|\b(?:${AMOUNT} ${UNIT} ago|since (?:yesterday|last (?:night|week|month|year)|this (?:morning|week)|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:january|february|march|april|may|june|july|august|september|october|november|december)|the (?:accident|fall|surgery|injury)))\b`,
);
const SEVERITY =
  /\b(?:\d+ out of 10|\d+\/10|mild|moderate|severe|slight|slightly|excruciating|terrible|horrible|unbearable|really bad|pretty bad|very bad|bad|worst|sharp|dull|throbbing|stabbing|burning|aching|crampy)\b/;
const TIMING =
  /\b(?:at night|in the morning|in the evening|after (?:eating|meals|i eat|dinner|lunch|breakfast)|before (?:meals|eating)|all day|all the time|constantly|on and off|off and on|intermittent(?:ly)?|comes and goes|every (?:day|night|morning)|daily|sometimes|occasionally|once in a while|every once in a while|now and then)\b/;
const MODIFIER =
  /\b(?:when (?:i|you|she|he|they) (?:walk|climb|run|exercise|bend|lift|lie down|lay down|stand|sit|eat|breathe|cough|move|sleep|exert|go up stairs|walk up stairs|get up)\w*(?: [a-z]+){0,3}|with (?:exertion|activity|walking|movement|exercise|deep breaths?|coughing)|(?:worse|better|relieved|improves?|improved|eased) (?:with|by|when|after|if) [a-z]+(?: [a-z]+){0,3}|(?:tylenol|ibuprofen|advil|motrin|aleve|rest|ice|heat) (?:helps|helped|does not help|did not help))\b/;

const BODY = new PhraseMatcher<BodyPart>(BODY_PARTS, (part) => part.phrases);

/** A side said to be well: "the left is fine". */
const SIDE_IS_FINE =
  /\b(?:is|are|feels?|seems?|ones?|one's)\s+(?:fine|okay|ok|good|normal|clear|great|all right|alright)\b|\bnot (?:the|my|on the)\b/;
/**
 * Where a side's clause starts in unpunctuated speech: "my right knee not the left the left ones
 * fine" is three clauses, each with its own side.
 */
const SIDE_CLAUSE = /\s*[,.;]\s*|(?<!\bnot)\s+(?=(?:not )?(?:the|my|on the) (?:left|right)\b)/;
const CORRECTED = /\b(?:no|sorry|i mean|actually|wait|rather)\b/;
/** A side said not to be the one: "not the right knee", "not my left"; anywhere, and opening a clause. */
const SIDE_CORRECTED = /\bnot (?:the|my|on the|your|her|his) (left|right)\b/;
const SIDE_DENIED = new RegExp(`^\\s*${SIDE_CORRECTED.source}`);

/**
 * The side a text names, if it names one: the side said after a correction ("the right. no, sorry,
 * the left"), else the first side not said to be fine ("my right knee … the left is fine").
 */
export function sideIn(text: string): SymptomAttributes['laterality'] {
  const clauses = text.split(SIDE_CLAUSE);
  let side: SymptomAttributes['laterality'];
  let correction = false;
  for (const clause of clauses) {
    if (CORRECTED.test(clause) && side !== undefined) correction = true;
    // "It's not the right knee, it's the left": a side said not to be it is no side, and what follows corrects it.
    if (SIDE_DENIED.test(clause)) {
      correction = true;
      continue;
    }
    const named = SIDES.find(([pattern]) => pattern.test(clause))?.[1];
    if (named === undefined || SIDE_IS_FINE.test(clause)) continue;
    if (side === undefined || correction) side = named;
    correction = false;
  }
  return side;
}

/** "It's not the right knee, it's the left": the side said not to be it, and the side said instead. */
export function sideCorrection(text: string): { denied: string; side: 'left' | 'right' | 'bilateral' } | null {
  const denied = SIDE_CORRECTED.exec(text)?.[1];
  const side = denied === undefined ? undefined : sideIn(text);
  return denied === undefined || side === undefined || side === denied ? null : { denied, side };
}

/** `text` with the side a correction denied replaced by the side said instead. */
export function withSideCorrected(text: string, correction: { denied: string; side: string }): string {
  const capital = `${correction.side.charAt(0).toUpperCase()}${correction.side.slice(1)}`;
  return text.replace(new RegExp(`\\b${correction.denied}\\b`, 'i'), (word) =>
    /^[A-Z]/.test(word) ? capital : correction.side,
  );
}

/** A side of the body, not of a part: "both sides", "left-sided". */
const SIDE_OF_BODY = /\b(?:both|left|right|either|each)(?:[- ]sided| sides?)\b/;

/** Parts whose plural means both sides: "both knees", "my ankles are swollen". */
const PAIRED_PLURAL = /^(?:knees|ankles|feet|legs|arms|hands|eyes|ears|hips|shoulders|elbows|wrists|calves|thighs)$/;

/** The first body part named in `text`, with the side when the part comes in pairs. */
/** "Reach for anything over my head" says where the arm goes, not a place on the body that hurts. */
const NOT_A_PLACE = /\b(?:over|above|on top of) (?:my|your|his|her|their|the) head\b/g;

export function locationIn(text: string): { location: string; laterality?: SymptomAttributes['laterality'] } | null {
  const [mention] = BODY.find(text.replace(NOT_A_PLACE, ' '));
  if (mention === undefined) return null;
  // A part that is not paired takes a side said with it ("left chest", "both sides"), never another
  // part's ("neck pain … down my left arm").
  const sideOfBody = SIDE_OF_BODY.exec(text)?.[0];
  const side = mention.entry.paired
    ? sideIn(text)
    : (sideIn(text.slice(Math.max(0, mention.start - 20), mention.end)) ??
      (sideOfBody === undefined ? undefined : sideIn(sideOfBody)));
  const plural = mention.entry.paired && PAIRED_PLURAL.test(mention.said);
  const laterality = side ?? (plural ? 'bilateral' : undefined);
  return laterality === undefined ? { location: mention.entry.name } : { location: mention.entry.name, laterality };
}

const firstMatch = (pattern: RegExp, text: string): string | undefined => pattern.exec(text)?.[0];

/** Everything `text` says about the symptom it mentions. */
export function attributesIn(text: string): SymptomAttributes {
  const attributes: SymptomAttributes = { modifiers: [] };
  const set = (key: 'duration' | 'onset' | 'severity' | 'timing', value: string | undefined) => {
    if (value !== undefined) attributes[key] = value;
  };
  set('duration', firstMatch(DURATION, text));
  set('onset', firstMatch(ONSET, text));
  set('severity', firstMatch(SEVERITY, text));
  set('timing', firstMatch(TIMING, text));
  const modifier = firstMatch(MODIFIER, text);
  if (modifier !== undefined) attributes.modifiers.push(modifier);
  return attributes;
}
