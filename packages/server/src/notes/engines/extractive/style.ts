import { SYMPTOM_CUES, type Kind } from './lexicons.js';
import type { Statement } from './statements.js';
import { detokenize, isWord, tokenize } from './text.js';

/**
 * Note style beyond the person of the verbs: the clinician's narration of the visit dropped ("I'm
 * going to listen to your heart", "let's talk about my plan"), the clinician's "I want to order …"
 * written as the order it is, "I think he has …" as the impression, "I hear a murmur" as the
 * finding, problem headings ("for your last problem, your hypertension") as the problem, and
 * fragments without a clinical predicate left out. Every rewrite only drops or reorders words
 * that were said, so the note still says nothing that nobody said.
 */

/** Actions the clinician announces while examining or talking, never note content. */
const NARRATION: readonly RegExp[] = [
  /^(?:i am|we are|i will|we will|let me|let us|we will|i want to|i would like to|i wanted to|i need to|i am going to|we are going to)(?: just| quickly| now| also| first| go ahead and| kind of)*(?: going to)? (?:listen|examine|take a (?:quick |closer |good )?look|look|feel|press|push|talk|chat|go over|discuss|move on|go ahead|get started|check (?:you|him|her|them) out|do (?:a|my|the|your|some) (?:quick |brief |little |focused )?(?:physical )?exam(?:ination)?|check (?:on )?(?:your|his|her|the) (?:heart|lungs|last|vitals?|blood pressure|labs|ears|eyes|throat|belly|abdomen|back|legs|reflexes))\b/,
  /^(?:we will|we are going to|let us|i want to|i am going to) (?:just )?(?:review|go over|look at) (?:your|his|her|the|some)\b(?!.*\b(?:weeks?|months?|next|again|showed|shows|revealed|normal|abnormal|elevated)\b)/,
  // Unless the assessment follows in the same breath ("… my assessment and plan for you so you have …").
  /\b(?:talk|chat|go over|discuss) (?:a little bit |a bit )?(?:about )?(?:my |the )?(?:assessment|plan)\b(?!.*\b(?:you|he|she|they) (?:have|has) (?:what (?:we|i) (?:would )?call )?(?:a |an )?\w)/,
  /\bmy assessment and (?:my )?plan\b(?!.{12})/,
  /\bit (?:has|is) been (?:a while|a long time|some time)\b/,
  /\bsince i (?:last )?saw (?:you|him|her|them)\b/,
  /\b(?:have|had) not seen (?:you|him|her|them) (?:in|for) (?:a while|a long time|some time)\b/,
  /^(?:(?:go ahead and )?(?:lean|sit|lie|lay|scoot) (?:up|back|forward|down)|take a (?:deep |big )?breath|breathe (?:in|out)|(?:show|pull|bring) (?:me|up))\b/,
  /^i (?:just )?(?:know|remember) (?:the nurse|we (?:went|talked|did))\b/,
  /^(?:i|we) (?:just )?wanted to (?:check|look|see|talk|go over|review|touch base)\b/,
  /\b(?:i|we) (?:will|are going to|am going to) (?:let|tell) (?:you|him|her) (?:know )?what (?:i|we) find\b/,
];

/** Whether a clinician's statement only narrates the visit. */
export function isNarration(statement: Statement): boolean {
  if (statement.speaker !== 'clinician' && statement.speaker !== 'unknown') return false;
  return NARRATION.some((pattern) => pattern.test(statement.lower));
}

const PERSON = String.raw`(?:he|she|they|the patient|his|her|their|the patient's|this|that|it|there|these|those)`;

/** Actions an order or decision names. */
const ACTION_VERBS = String.raw`(?:order|prescribe|refer|start|continue|increase|decrease|schedule|obtain|send|recommend|repeat|switch|stop|discontinue|hold|add|change|adjust|restart|resume|check|draw|get|give|put|keep|try|use|place|consult|arrange|taper|reduce|refill|renew|update|follow|see|have)`;

const AUXILIARY = String.raw`(?:want to|would like to|am going to|are going to|will|need to|plan to|would want to|would also like to|can|should)`;

/** Clause rewrites, applied in order to the third-person, cleaned sentence (lower-case matching). */
const REWRITES: readonly (readonly [RegExp, string])[] = [
  // Hedges and scaffolding that open a clinician's statement.
  [
    new RegExp(
      String.raw`(^|, (?:and )?|\band )(?:i know|i think|i believe|i feel like|i suspect|it looks like|it sounds like|it seems like|i see) (?:that )?(?=${PERSON}\b)`,
      'g',
    ),
    '$1',
  ],
  // "I (do) want to order X" → "order X"; "and I would like to refer him to PT" → "and refer to PT".
  [
    new RegExp(
      String.raw`(^|, (?:and )?|\band )(?:i|we)(?: do| really| also| just| definitely| still| probably)* ${AUXILIARY}(?: also| just| go ahead and| definitely| probably| actually)*,? (${ACTION_VERBS})\b(?: ,? ?just\b)?,?`,
      'g',
    ),
    '$1$2',
  ],
  [
    /^(?:let us|we will|i will)(?: also| just| go ahead and)* (order|prescribe|refer|start|continue|increase|decrease|schedule|obtain|repeat)\b/,
    '$1',
  ],
  [/\b(continue|start|put|keep|maintain|restart|resume) (?:him|her|them|the patient) on\b/g, '$1'],
  [/\b(refer) (?:him|her|them|the patient) (to|for)\b/g, '$1 $2'],
  // Examination: "I do appreciate a murmur" → "murmur"; "I do not hear any murmurs" → "no murmurs".
  [
    /(^|, )(?:i|we) (?:do|did) not (?:hear|appreciate|see|feel|palpate|note|notice|recognize|observe)(?: any)?\b/g,
    '$1no',
  ],
  [
    /(^|, )(?:i|we) (?:do |did |can |also )?(?:appreciate|hear|note|notice|palpate|recognize|observe)(?: a| an| some)?\b/g,
    '$1',
  ],
  // Verbs only an examiner uses, anywhere in running dictation: "… 2 by 2 cm i do recognize sloughing".
  [/(^|\s)(?:i|we) (?:do|did) not (?:appreciate|recognize|palpate)(?: any)?\b/g, '$1no'],
  [/(^|\s)(?:i|we) (?:do |did |can |also )*(?:appreciate|recognize|palpate)(?: a| an| some)?\b/g, '$1'],
  [/^on (?:his|her|their|the patient's|the|today's) ((?:[a-z]+ ){0,2})(exam|examination),? /, '$1$2: '],
  // "On physical examination, I do hear a murmur": the lead-in names no part, so only the finding stays.
  [/^on (?:physical )?exam(?:ination)?,? (?!of\b)/, ''],
  [/\b(he|she|they|the patient|it) (?:does|do) have\b/g, '$1 has'],
];

/** Words a note sentence does not end with: something was cut off after them. */
const DANGLING_END = new Set(
  (
    'a an the of to for on in with at and or but from by into as that than his her their my your our its ' +
    'this these those some any very just so because if about like is are was were be been has have had do ' +
    'does did will would can could should am not no'
  ).split(' '),
);

/** Openers of a clause that cannot stand alone. */
const SUBORDINATE =
  /^(?:if|when|whenever|because|since(?! then)|although|though|unless|while|until|so that|to make sure|in order to|which|who|whether)\b/;
/**
 * The clause a subordinate one leads into, where speech has no comma between them ("if that happens
 * I am also going to order a urine culture"): a subject and a modal or "going to" after the opener's
 * own words.
 */
const MAIN_CLAUSE_AFTER =
  /^\S+ \S.*? (?:i|we|you|he|she|they) (?:(?:am|are|is|also|just|then|still|definitely|probably) ){0,2}(?:going to|will|would|need to|can|should|may|might|must)\b/;
const PREPOSITION_START = /^(?:with|for|at|in|on|of|to|from|by|about|after|before|during|over|under|around|like|as)\b/;

/** Words that make a clause a statement: auxiliaries, note verbs, finite or participial forms. */
const PREDICATE =
  /\b(?:is|are|was|were|be|been|being|has|have|had|does|do|did|will|would|can|could|should|may|might|must|shows?|showed|reports|denies|endorses|feels?|felt|takes?|took|gets?|got|goes|went|hurts?|seems?|looks?|sounds?|needs?|wants?|uses?|lives|works|smokes|drinks|eats|sleeps|walks|runs|comes|came|says|said|knows|thinks|ran|ate|saw|gave|made|began|lost|fell|broke|\w{3,}ed|\w{3,}ing|order|prescribe|refer|start|continue|increase|decrease|schedule|obtain|send|recommend|repeat|switch|stop|discontinue|hold|add|change|adjust|restart|resume|check|draw|get|give|keep|try|taper|reduce|refill|follow|return|see|avoid|apply|ice|elevate|monitor|stay|call|come|rest|wear|use|take|put|dispense|diagnose|place|includes?)\b|\b(?:he|she|they|i|we|it|patient|there) (?:\w+ly )?[a-z]+s?\b(?<!\b(?:he|she|they|i|we|it|patient|there) (?:and|or|but|with|in|on|at|for|to|of|the|a|an))/;

/** Verbless statements a note keeps as they are: findings and measurements. */
const FINDING_KINDS: ReadonlySet<Kind> = new Set(['exam', 'vitals', 'results']);

/** A problem heading said as such: "for his last problem, his hypertension" → "hypertension". */
const PROBLEM_HEADING =
  /^(?:for|regarding|as for|in terms of|with regards? to|now for|moving on to|onto|on to) (?:his|her|their|the patient's|the|your) (?:(?:first|second|third|fourth|fifth|next|last|final|other|new|main) )?(?:problem|issue|concern|diagnosis|thing),? (?:(?:his|her|their|the patient's|the|your) )?/;

export interface Styled {
  tokens: string[];
  /** A problem heading reduced to the problem: verbless, but an assessment item. */
  heading: boolean;
}

/** Cuts a sentence that was cut off ("… which we have heard in the") back to where it was whole. */
function trimCutOff(text: string): string {
  let current = text.trim();
  const lastWord = () => (/([\p{L}\p{N}'’]+)[^\p{L}\p{N}]*$/u.exec(current)?.[1] ?? '').toLowerCase();
  if (!DANGLING_END.has(lastWord())) return current;
  const comma = current.lastIndexOf(',');
  if (comma > 0 && current.slice(0, comma).split(' ').length >= 3) return current.slice(0, comma).trim();
  for (let guard = 0; guard < 6 && DANGLING_END.has(lastWord()); guard++) {
    current = current.replace(/[^\p{L}\p{N}]*[\p{L}\p{N}'’]+[^\p{L}\p{N}]*$/u, '').trim();
  }
  return current;
}

/**
 * The statement's tokens in note style, or null when what is left is a fragment. `clinician` is
 * whether the words are the clinician's own (orders, findings, impressions are rewritten only
 * there).
 */
export function noteStyle(tokens: readonly string[], kind: Kind, clinician: boolean): Styled | null {
  let text = detokenize(tokens);
  let lower = text.toLowerCase();
  let heading = false;
  if (clinician) for (const [pattern, replacement] of REWRITES) lower = lower.replace(pattern, replacement);
  // A problem heading is the problem, whoever says it (dictated notes have no labelled speaker).
  const problem = PROBLEM_HEADING.exec(lower);
  if (problem !== null && !PREDICATE.test(lower.slice(problem[0].length))) {
    lower = lower.slice(problem[0].length);
    heading = true;
  }
  if (lower !== text.toLowerCase()) text = restoreCase(lower, text);
  text = trimCutOff(text)
    .replace(/\s*,\s*(?=[:;.]|$)/g, '')
    .replace(/^[\s,:;]+/, '');
  lower = text.toLowerCase();
  const out = tokenize(text);
  if (!out.some(isWord)) return null;
  if (heading) return { tokens: out, heading };
  if (SUBORDINATE.test(lower) && !lower.includes(',') && !MAIN_CLAUSE_AFTER.test(lower)) return null;
  const predicate = PREDICATE.test(lower) || /^[a-z ]*exam:/.test(lower);
  if (!predicate) {
    // A symptom or a finding named on its own ("shortness of breath", "no belly pain") is content.
    const clinical = SYMPTOM_CUES.test(lower) || /\bno\b/.test(lower);
    if (PREPOSITION_START.test(lower) && (!clinical || out.filter(isWord).length < 6)) return null;
    if (!clinical && !FINDING_KINDS.has(kind) && kind !== 'assessment' && kind !== 'plan') return null;
  }
  return { tokens: out, heading };
}

/**
 * The rewrites work on lower-case text; this puts back the capitals of the words as said (names,
 * "I", abbreviations) wherever the same word is still there.
 */
function restoreCase(lower: string, original: string): string {
  const cased = new Map<string, string>();
  tokenize(original).forEach((token, index) => {
    // A sentence's first word is capitalised for being first, not for being a name.
    if (token !== token.toLowerCase() && (index > 0 || token === 'I')) cased.set(token.toLowerCase(), token);
  });
  if (cased.size === 0) return lower;
  return lower.replace(/[\p{L}\p{N}][\p{L}\p{N}'’.\-/]*/gu, (word) => cased.get(word) ?? word);
}
