/**
 * What the clinician found: examination findings, one per finding, filed by system (normal or
 * not; "no murmurs" is a finding looked for and absent), and results of tests (the test, its value
 * and unit, what it showed). Read from the clinician's own statements — in the exam and results
 * parts of the visit, or wherever a finding is said outright ("your lungs are clear") — and put in
 * chart words ("I do appreciate a 3/6 systolic ejection murmur" → "3/6 systolic ejection murmur").
 */
import type { Gender } from '../engines/extractive/rewrite.js';
import { toNoteSentence, toThirdPerson } from '../engines/extractive/rewrite.js';
import { isUsable } from '../engines/extractive/relevance.js';
import { noteStyle } from '../engines/extractive/style.js';
import { tokenize } from '../engines/extractive/text.js';
import { turnsSource, type DraftOf } from './draft.js';
import { examSystemOf, isNormalFinding, namedSystem } from './exam-systems.js';
import { salvage } from './register.js';
import { resultOf, resultText } from './results.js';
import type { Utterance } from './utterances.js';

export type ExamDraft = DraftOf<'exam'>;
export type ResultDraft = DraftOf<'result'>;

const MIN_WORDS = 2;
/** Past this many words a spoken result reads better as its parts. */
const LONG_FINDING = 45;

/** Chart words for a clinician's statement of a finding, without a closing full stop. */
function findingText(tokens: readonly string[], kind: Utterance['kind'], gender: Gender): string | null {
  const rewritten = toThirdPerson(tokens, 'clinician', gender);
  const styled = noteStyle(rewritten, kind, true);
  if (styled === null) return null;
  const text = salvage(toNoteSentence(styled.tokens))?.replace(/\.$/, '');
  if (text === undefined || text.split(' ').length < MIN_WORDS) return null;
  return text;
}

const isClinicians = (utterance: Utterance) =>
  (utterance.speaker === 'clinician' || utterance.speaker === 'unknown') &&
  !utterance.question &&
  isUsable(utterance.statement);

/** An examination word and what was found with it, said outright in any part of the visit. */
const EXAM_LANGUAGE =
  /\b(?:lungs?|breath sounds|heart|belly|abdomen|neck|throat|ears?|eardrums?|pupils?|skin|extremit\w+|reflexes|pulses?|murmurs?)\b.*\b(?:clear|regular|soft|tender\w*|normal|decreased|diminished|swollen|red|inflamed|intact|symmetric|murmurs?|rhythm|guarding|crackles|wheez\w+|rales|edema)\b|\b(?:no|some|mild) (?:murmurs?|guarding|rebound|edema|crackles|wheez\w+|redness|erythema|swelling)\b|\b(?:swelling|tenderness|redness|bruising|effusion) (?:over|of|on|at|in)\b|\bregular rate and rhythm\b/;
/** Where one finding ends and the next begins in a dictated exam. */
const FINDING_BREAK =
  /\s*(?:(?<=[a-z]{3})\s(?=there (?:is|are) (?:no|some|a|an|positive|negative|mild|good|full|normal)\b)|(?<!\d)\.|\.(?!\d)|;|,\s*(?:but|and)\s|,\s*(?=(?:no|there is|there are|his|her|their|the(?! patient's))\s)|\s(?:and|but) (?=(?:no|there is|there are|his|her|the)\s)|(?<!'s|\bhis|\bher|\btheir|\bthe|\byour|\bsystolic|\bdiastolic)\s(?=(?:heart|lungs|belly|abdomen|neck)\s))\s*/i;
const VITAL_READING =
  /\b(?:temperature|blood pressure|heart rate|pulse|oxygen|saturation|respiratory rate|weight|bmi)\b[^.]*\d/i;
/** "No murmurs": a finding looked for and not there. */
const ONLY_ABSENT = /^(?:no|without|negative for)\s/i;

/**
 * Said in the examination but no finding: a question or an instruction to the patient ("is that
 * painful", "try and move it"), a condition ("if it is abnormal"), a courtesy ("that is good to
 * know"), or what the clinician thinks may be going on, which is the assessment's.
 */
const NOT_A_FINDING =
  /^(?:is|are|does|do|did|can|could|would|will|what|where|how|why|which|try|get|let|go ahead|if|far|that is (?:it|good|great|fine|okay)\b|she is welcome|he is welcome|you are welcome)\b|\b(?:could be|possible|possibly|likely|potential causes?|might be|may be|i think)\b|^(?:just |i am |we are )?(?:going to|we will|i will)\b/i;
/** Words a finding is told in, for one that names no system ("well-nourished, slightly fussy"). */
const FINDING_WORDS =
  /\b(?:exam\w*|appear\w*|well[- ]\w+|distress|edema|pitting|erythema|rash\w*|murmurs?|wheez\w*|crackles|clear|effusion|laxity|elderly|wheelchair|ambulat\w*|gait|alert|oriented|comfortable|fussy|pleasant|nourished|developed|normal|abnormal|unremarkable|tender\w*|swell\w*|swollen|pain\w*|bruis\w*|lacerations?|abrasions?|deformit\w+|fractures?|bony|flexion|extension|deviation|strength|sensation|intact|present|absent|positive|negative|doppler|genitalia|mass|masses|nodules?|scars?|ligament|hernia|distention|distension|maneuver|fluid|looks? well|purs\w+|degrees?)\b|\d+\s*(?:\/\s*\d+|cm|mm|centimeters?|millimeters?|degrees?|seconds?|%)/i;

/** An exam named and nothing found in it: "physical exam", "see her heart exam", "lung exam:" said before the finding. */
const EXAM_NAMED_ONLY =
  /^(?:(?:of|on) (?:the|his|her|their|your) [a-z]+ )?(?:(?:otherwise|on|see|looking at|perform)\s+)*(?:(?:his|her|their|the|your|my|a)\s+)?(?:[a-z]+\s+){0,2}exam(?:ination)?:?\s*$/i;

/**
 * A lead-in that names where and not what was found: "of her lower back", "on the x-ray", "on the
 * right lateral foot near the fifth metatarsophalangeal joint" (the finding said in a clause of
 * its own).
 */
function namesOnlyWhere(text: string): boolean {
  return (
    /^(?:based )?(?:of|on|in|at) (?:his|her|their|the|your|the patient's)\b/i.test(text) &&
    !/\b(?:is|are|was|were|has|have|shows?|showed)\b/i.test(text) &&
    !FINDING_WORDS.test(text.replace(/\bexam\w*/gi, ''))
  );
}

function examFinding(clause: string, utterance: Utterance, context: string): ExamDraft | null {
  const text = clause
    .replace(/^(?:and|but|so|okay|good|ok)\s+/i, '')
    // "On exam of his right ankle there is swelling …" → "Right ankle exam: swelling …".
    .replace(
      /^on exam(?:ination)? of (?:his|her|their|the patient's|the) ([a-z ]+?),? there (?:is|are) /i,
      (_all, part: string) => `${part.charAt(0).toUpperCase()}${part.slice(1)} exam: `,
    )
    .replace(
      /^on (?:(?:his|her|their|the patient's|physical) )?(?:\w+ )?exam(?:ination)?,?\s*(?:there (?:is|are)\s+)?/i,
      '',
    )
    // "… and your exam, you have some tenderness": the lead-in ends in a comma and names nothing.
    .replace(/^(?:(?:his|her|their|the patient's|the|your|my)\s+)?(?:physical\s+)?exam(?:ination)?,\s*/i, '')
    .replace(/^(?:(?:his|her|their|the patient's)\s+)/i, '')
    .replace(/^there (?:is|are)\s+/i, '')
    // "heart, 2/6 systolic ejection murmur": the organ said before the finding names the system.
    .replace(
      /^(?:heart|lungs|belly|abdomen|neck|skin|musculoskeletal|neuro(?:logic(?:al)?)?|cardiovascular|respiratory|psych(?:iatric)?|extremities),\s+/i,
      '',
    );
  // A sign read out ("temperature is 38.2") is a vital, charted with the vitals.
  if (VITAL_READING.test(text)) return null;
  if (!/[a-z]/i.test(text) || namesOnlyWhere(text)) return null;
  if (EXAM_NAMED_ONLY.test(text)) return null;
  // An organ named and nothing found with it ("lungs", the rest of the sentence broken off).
  if (!/\s/.test(text.trim()) && !FINDING_WORDS.test(text)) return null;
  if (NOT_A_FINDING.test(text)) return null;
  const lower = text.toLowerCase();
  const system = examSystemOf(lower, context);
  if (system === 'General' && !FINDING_WORDS.test(text)) return null;
  const absent = ONLY_ABSENT.test(text);
  return {
    kind: 'exam',
    text,
    system,
    finding: text,
    normal: absent || isNormalFinding(lower),
    polarity: absent ? 'absent' : 'present',
    subject: { type: 'patient' },
    speaker: utterance.speaker,
    source: turnsSource([utterance.turn]),
  };
}

/**
 * What a finding's system is read from when its own words name none: its statement, else the
 * nearest earlier sentence of the turn that names a system ("So on abdominal exam. There is no
 * tenderness to palpation.").
 */
function examContext(utterances: readonly Utterance[], index: number): string {
  const utterance = utterances[index];
  if (utterance === undefined || namedSystem(utterance.text) !== undefined) return utterance?.text ?? '';
  for (let earlier = index - 1; earlier >= 0 && utterances[earlier]?.turn === utterance.turn; earlier--) {
    const text = utterances[earlier]?.text ?? '';
    if (namedSystem(text) !== undefined) return text;
  }
  return utterance.text;
}

export function examFacts(utterances: readonly Utterance[], gender: Gender): ExamDraft[] {
  const drafts: ExamDraft[] = [];
  for (const [index, utterance] of utterances.entries()) {
    if (!isClinicians(utterance)) continue;
    // A finding said outright counts in any part of the visit, but what the plan decides is the plan's.
    const decides = utterance.kind === 'plan' || utterance.kind === 'assessment' || utterance.kind === 'follow_up';
    if (utterance.kind !== 'exam' && (decides || !EXAM_LANGUAGE.test(utterance.text))) continue;
    const finding = findingText(utterance.tokens, 'exam', gender);
    if (finding === null) continue;
    const findings = finding
      .split(FINDING_BREAK)
      .map((clause) => clause.trim())
      .filter((clause) => clause !== '' && tokenize(clause).length >= 1);
    const context = examContext(utterances, index);
    for (const clause of findings) {
      const exam = examFinding(clause, utterance, context);
      if (exam !== null) drafts.push(exam);
    }
  }
  return drafts;
}

/** "This shows …" read out over a test is charted with the test's name ("Echocardiogram shows …"). */
function namedTest(finding: string, test: string): string {
  return finding.replace(
    /^(?:this|it|that)(?: also)? (shows?|showed|revealed|demonstrated)\b/i,
    (_all, verb: string) => `${test} ${verb}`,
  );
}

/** Signs read out are vitals, not results. */
const VITAL_WORDS = /\b(?:blood pressure|heart rate|pulse|temperature|oxygen|vitals|vital signs|weight)\b/;

/** A named test with what it showed stands on its own; an unnamed one must read as a finding. */
function reportsResult(utterance: Utterance, result: ReturnType<typeof resultOf>): boolean {
  const speaks = utterance.speaker === 'clinician' || utterance.speaker === 'unknown';
  if (!speaks || utterance.question) return false;
  if (result !== null) return true;
  return (
    utterance.kind === 'results' &&
    isUsable(utterance.statement) &&
    !VITAL_WORDS.test(utterance.text) &&
    utterance.text.split(' ').length >= 5
  );
}

export function resultFacts(utterances: readonly Utterance[], gender: Gender): ResultDraft[] {
  const drafts: ResultDraft[] = [];
  for (const utterance of utterances) {
    const result = resultOf(utterance.text);
    if (!reportsResult(utterance, result)) continue;
    const written = findingText(utterance.tokens, 'results', gender);
    const finding =
      result !== null && (written === null || written.split(' ').length > LONG_FINDING) ? resultText(result) : written;
    if (finding === null) continue;
    drafts.push({
      kind: 'result',
      text: result === null ? finding : namedTest(finding, result.test),
      test: result?.test ?? 'result',
      ...(result?.value === undefined ? {} : { value: result.value }),
      ...(result?.unit === undefined ? {} : { unit: result.unit }),
      interpretation: result?.interpretation ?? finding,
      polarity: 'present',
      subject: { type: 'patient' },
      speaker: utterance.speaker,
      source: turnsSource([utterance.turn]),
    });
  }
  return drafts;
}
