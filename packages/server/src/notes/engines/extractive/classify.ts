import {
  ASSESSMENT_CUES,
  DIAGNOSIS_WORDS,
  EXAM_FINDING_CUES,
  EXAM_PHASE_CUES,
  FUTURE_ACTION_CUES,
  KIND_CUES,
  PLAN_CUES,
  ORDER_CUES,
  PLAN_PHASE_CUES,
  RESULT_FINDING_CUES,
  RESULTS_PHASE_CUES,
  TEST_TO_BE_DONE,
  type Kind,
} from './lexicons.js';
import type { Statement } from './statements.js';

/**
 * What kind of note content each statement is. Visits follow a course — history, examination,
 * results, assessment and plan — and the clinician's words mark the turns ("let's do a quick
 * exam", "let's look at your x-ray", "for your first problem"). A statement's kind comes from the
 * phase it was said in, overridden by cues that hold in any phase (allergies, family and social
 * history, vitals, results).
 */

export type Phase = 'history' | 'exam' | 'results' | 'plan';

/** Examination findings that can sound like an impression ("lungs are clear", "looks like swelling"). */
const FINDING_WORDS =
  /\b(?:tender\w*|swelling|swollen|edema|murmurs?|clear|palpation|range of motion|reflexes|pulses?|bruising|erythema)\b/;

/** An impression stated outright ("I think you have …", "consistent with …"). */
const IMPRESSION_CUES =
  /\b(?:i (?:think|believe|suspect) (?:that )?(?:you|he|she|the patient|this|it) (?:have|has|is|are)(?! (?:going|been|doing|had|not))|(?:it is|it's|this is|that is|most) likely|(?:consistent|compatible) with|suggestive of|my (?:diagnosis|impression) is|(?:you|he|she) (?:have|has) (?:a |an )?(?:\w+ ){0,3}(?:sprain|strain|fracture|infection|tear|disease|syndrome|\w+itis|\w+osis))\b/;

/**
 * How a clinician says an impression aloud: "I think this is", "it sounds like", "that's a".
 * ("Consistent with" is how reports read, and a report read out is a result.)
 */
const IMPRESSION_FRAME =
  /\b(?:i (?:think|suspect|believe)(?: that)? (?:this|it|that|you|he|she) (?:is|are|has|have)|(?:this|that|it) (?:is|looks|sounds|seems)(?: (?:most|more|very))?(?: likely| probably| like)?|(?:the|your|his|her) [a-z]+(?: [a-z]+)? (?:looks|sounds|seems)(?: (?:most|more|very))?(?: likely| probably| like)?)((?: (?!not\b|no\b|never\b|consistent\b|compatible\b|suggestive\b)[a-z'-]+){0,3})/g;
/**
 * A condition the patient was told of before is history, and one explained ("it is a disorder
 * that typically begins in childhood") is counselling: neither is today's impression.
 */
const NOT_TODAYS =
  /\b(?:history of|in the past|years ago|used to|diagnosed|(?:was|were) told|runs in|typically|usually|commonly|people|children)\b/;
/** A negation just before the frame takes the impression back: "I don't think this is …". */
const NEGATED_BEFORE = /\b(?:not|never|no)(?: [a-z']+){0,3} ?$/;

/**
 * Whether a clinician names what the patient has today, framed as an impression ("I think this is
 * a viral infection", "the knee pain sounds like osteoarthritis"): clear in any part of the visit.
 */
export function statesDiagnosis(statement: Statement): boolean {
  if ((statement.speaker !== 'clinician' && statement.speaker !== 'unknown') || statement.question) return false;
  const text = statement.lower;
  if (NOT_TODAYS.test(text)) return false;
  for (const frame of text.matchAll(IMPRESSION_FRAME)) {
    if (NEGATED_BEFORE.test(text.slice(0, frame.index))) continue;
    const named = DIAGNOSIS_WORDS.exec(text.slice(frame.index + frame[0].length - (frame[1]?.length ?? 0)));
    if (named !== null && named.index <= (frame[1]?.length ?? 0) + 1) return true;
  }
  return false;
}

/**
 * The kind an explicit cue gives a clinician's statement, whatever the phase: orders and
 * decisions → plan (or follow-up), a test with its result → results, examination language and
 * measured vitals → exam (or vitals), an impression → assessment. Null when nothing is explicit.
 */
function explicitKind(statement: Statement): Kind | null {
  if (statement.speaker !== 'clinician' && statement.speaker !== 'unknown') return null;
  if (statement.question) return null;
  const text = statement.lower;
  if (ORDER_CUES.test(text)) return cueKind(text) === 'follow_up' ? 'follow_up' : 'plan';
  if (RESULT_FINDING_CUES.test(text) && !FUTURE_ACTION_CUES.test(text)) return 'results';
  if (EXAM_FINDING_CUES.test(text) && !FUTURE_ACTION_CUES.test(text))
    return cueKind(text) === 'vitals' ? 'vitals' : 'exam';
  if (IMPRESSION_CUES.test(text) && !FINDING_WORDS.test(text)) return 'assessment';
  return null;
}

function nextPhase(phase: Phase, statement: Statement): Phase {
  if (statement.speaker !== 'clinician' && statement.speaker !== 'unknown') return phase;
  const text = statement.lower;
  if (PLAN_PHASE_CUES.test(text)) return 'plan';
  if (phase === 'plan') return /\bphysical exam/.test(text) ? 'exam' : phase;
  const explicit = explicitKind(statement);
  // An impression after the examination opens the assessment, even unannounced.
  if (
    (phase === 'exam' || phase === 'results') &&
    !statement.question &&
    explicit !== 'exam' &&
    explicit !== 'results' &&
    explicit !== 'vitals' &&
    (explicit === 'assessment' || (ASSESSMENT_CUES.test(text) && !/\b(?:is|are) stable\b/.test(text))) &&
    !FINDING_WORDS.test(text)
  ) {
    return 'plan';
  }
  // Examination and results review interleave ("let me listen … let's look at your x-ray …").
  if (RESULTS_PHASE_CUES.test(text)) return 'results';
  if (EXAM_PHASE_CUES.test(text) && !statement.question) return 'exam';
  return phase;
}

/** Exam and results language clear enough to place a statement even during the history. */
const EXAM_STRONG =
  /\b(?:on (?:(?:your|his|her|the|physical) )?(?:\w+ )?exam|(?:i|we) (?:do )?(?:hear|appreciate)|to palpation|clear to auscultation|(?:showed|shows|revealed|came back)|(?:i|we) (?:do |really |also |just )*(?:want to|would like to|am going to|will) (?:order|prescribe|refer))\b/;

const HISTORY_ONLY: ReadonlySet<Kind> = new Set([
  'family_history',
  'social_history',
  'past_history',
  'medications',
  'allergies',
]);

function cueKind(text: string): Kind | null {
  for (const [kind, pattern] of KIND_CUES) {
    if (!pattern.test(text)) continue;
    // A test named only as something to do is the plan's ("is to do a kidney ultrasound").
    if (kind === 'results' && TEST_TO_BE_DONE.test(text) && !RESULT_FINDING_CUES.test(text)) return 'plan';
    return kind;
  }
  return null;
}

function classifyOne(statement: Statement, phase: Phase): Kind {
  const text = statement.lower;
  const clinician = statement.speaker === 'clinician' || statement.speaker === 'unknown';
  // The clinician's one-line summary of who the patient is opens the history.
  if (/\b\d+[- ]year[- ]old\b|\b[a-z]+[- ]year[- ]old\b/.test(text)) return 'hpi';
  const cue = cueKind(text);
  if (phase === 'plan' && clinician) {
    if (cue === 'follow_up') return 'follow_up';
    if (cue === 'allergies') return 'allergies';
    // "let's talk about my assessment and plan … so you have what we call an mcl strain": the
    // announcement's "let's" is no plan of its own.
    const announced = PLAN_PHASE_CUES.exec(text);
    const rest = announced === null ? text : text.slice(announced.index + announced[0].length);
    if (announced !== null && ASSESSMENT_CUES.test(rest) && !PLAN_CUES.test(rest)) return 'assessment';
    if (PLAN_CUES.test(text)) return 'plan';
    if (ASSESSMENT_CUES.test(text) || namesDiagnosis(text)) return 'assessment';
    return 'plan';
  }
  if (cue === 'allergies' || cue === 'family_history') return cue;
  if ((phase === 'exam' || phase === 'results') && clinician) {
    if (FUTURE_ACTION_CUES.test(text) && !EXAM_PHASE_CUES.test(text)) return cue === 'follow_up' ? 'follow_up' : 'plan';
    if (cue === 'vitals' || cue === 'results') return cue;
    if (cue === 'follow_up') return cue;
    if (ASSESSMENT_CUES.test(text) && !FINDING_WORDS.test(text)) return 'assessment';
    return phase === 'results' ? 'results' : 'exam';
  }
  if (cue !== null && (phase === 'history' || HISTORY_ONLY.has(cue))) {
    if (cue === 'follow_up' || (cue === 'vitals' && !clinician)) return 'hpi';
    return cue;
  }
  // Readings the patient reports (home blood pressures) are history, not today's vitals.
  if (cue === 'results' || (cue === 'vitals' && clinician)) return cue;
  return 'hpi';
}

/** Each statement's kind, and the phase of the visit it was said in. */
export function classifyWithPhases(statements: readonly Statement[]): { kind: Kind; phase: Phase }[] {
  const ordered = statements
    .map((statement, index) => ({ statement, index }))
    .sort((a, b) => a.statement.order - b.statement.order);
  const classified = statements.map((): { kind: Kind; phase: Phase } => ({ kind: 'hpi', phase: 'history' }));
  let phase: Phase = 'history';
  // The last explicit exam or results statement of the current turn: what follows it in the same
  // turn, without a cue of its own, continues it ("the x-ray is normal. good bony alignment.").
  let carried: { turn: number; kind: Kind } | null = null;
  for (const { statement, index } of ordered) {
    phase = nextPhase(phase, statement);
    const turn = statement.turns[0] ?? -1;
    if (carried !== null && carried.turn !== turn) carried = null;
    const explicit =
      phase !== 'history' || EXAM_STRONG.test(statement.lower)
        ? explicitKind(statement)
        : statesDiagnosis(statement)
          ? 'assessment'
          : null;
    let kind = explicit ?? classifyOne(statement, phase);
    if (explicit === null && carried !== null && continuesCarried(kind, phase, statement)) kind = carried.kind;
    if (explicit === 'exam' || explicit === 'results' || explicit === 'vitals') carried = { turn, kind: explicit };
    else if (explicit !== null) carried = null;
    classified[index] = { kind, phase };
  }
  return classified;
}

/** A statement with no cue of its own after an exam or results statement of its turn continues it. */
function continuesCarried(kind: Kind, phase: Phase, statement: Statement): boolean {
  return (
    phase !== 'history' &&
    (kind === 'plan' || kind === 'assessment' || kind === 'exam' || kind === 'results') &&
    !PLAN_CUES.test(statement.lower) &&
    !ASSESSMENT_CUES.test(statement.lower) &&
    !(phase === 'plan' && namesDiagnosis(statement.lower))
  );
}

/** A diagnosis named on its own in the plan part ("a medial collateral ligament strain"): the assessment's. */
const namesDiagnosis = (text: string) =>
  DIAGNOSIS_WORDS.test(text) && text.split(' ').length <= 8 && !/^(?:or|and|but|so)\b/.test(text);
