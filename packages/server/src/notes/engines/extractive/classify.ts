import {
  ASSESSMENT_CUES,
  EXAM_PHASE_CUES,
  FUTURE_ACTION_CUES,
  KIND_CUES,
  PLAN_CUES,
  PLAN_PHASE_CUES,
  RESULTS_PHASE_CUES,
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

type Phase = 'history' | 'exam' | 'results' | 'plan';

/** Examination findings that can sound like an impression ("lungs are clear", "looks like swelling"). */
const FINDING_WORDS =
  /\b(?:tender\w*|swelling|swollen|edema|murmurs?|clear|palpation|range of motion|reflexes|pulses?|bruising|erythema)\b/;

function nextPhase(phase: Phase, statement: Statement): Phase {
  if (statement.speaker !== 'clinician' && statement.speaker !== 'unknown') return phase;
  if (statement.origin !== 'said') return phase;
  const text = statement.lower;
  if (PLAN_PHASE_CUES.test(text)) return 'plan';
  if (phase === 'plan') return /\bphysical exam/.test(text) ? 'exam' : phase;
  // An impression after the examination opens the assessment, even unannounced.
  if (
    (phase === 'exam' || phase === 'results') &&
    !statement.question &&
    ASSESSMENT_CUES.test(text) &&
    !FINDING_WORDS.test(text)
  ) {
    return 'plan';
  }
  // Examination and results review interleave ("let me listen … let's look at your x-ray …").
  if (RESULTS_PHASE_CUES.test(text)) return 'results';
  if (EXAM_PHASE_CUES.test(text) && !statement.question) return 'exam';
  return phase;
}

const HISTORY_ONLY: ReadonlySet<Kind> = new Set([
  'family_history',
  'social_history',
  'past_history',
  'medications',
  'allergies',
]);

function cueKind(text: string): Kind | null {
  for (const [kind, pattern] of KIND_CUES) if (pattern.test(text)) return kind;
  return null;
}

function classifyOne(statement: Statement, phase: Phase): Kind {
  const text = statement.lower;
  const clinician = statement.speaker === 'clinician' || statement.speaker === 'unknown';
  if (statement.origin !== 'said') {
    const kind = cueKind(text);
    return kind === 'allergies' || kind === 'social_history' || kind === 'medications' || kind === 'family_history'
      ? kind
      : 'ros';
  }
  // The clinician's one-line summary of who the patient is opens the history.
  if (/\b\d+[- ]year[- ]old\b|\b[a-z]+[- ]year[- ]old\b/.test(text)) return 'hpi';
  const cue = cueKind(text);
  if (phase === 'plan' && clinician) {
    if (cue === 'follow_up') return 'follow_up';
    if (cue === 'allergies') return 'allergies';
    if (PLAN_CUES.test(text)) return 'plan';
    if (ASSESSMENT_CUES.test(text)) return 'assessment';
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

/** Kinds for statements in conversation order. */
export function classifyStatements(statements: readonly Statement[]): Kind[] {
  const ordered = statements
    .map((statement, index) => ({ statement, index }))
    .sort((a, b) => a.statement.order - b.statement.order);
  const kinds: Kind[] = new Array<Kind>(statements.length).fill('hpi');
  let phase: Phase = 'history';
  for (const { statement, index } of ordered) {
    phase = nextPhase(phase, statement);
    kinds[index] = classifyOne(statement, phase);
  }
  return kinds;
}
