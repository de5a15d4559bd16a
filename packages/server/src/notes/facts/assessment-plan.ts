/**
 * The assessment and plan, problem by problem: the clinician's impression of each problem in their
 * own words, and the plan items that go with it — medications, tests, referrals, procedures,
 * follow-up, and the counselling the patient was given. The problem a statement is about is the
 * one the clinician last named ("for your heart failure, …").
 */
import type { FactOf } from '@chartwright/protocol';

import { toNoteSentence, toThirdPerson, type Gender } from '../engines/extractive/rewrite.js';
import { isUsable } from '../engines/extractive/relevance.js';
import { noteStyle } from '../engines/extractive/style.js';
import { detokenize } from '../engines/extractive/text.js';
import { ORDER_CUES } from '../engines/extractive/lexicons.js';
import { turnsSource, type DraftOf } from './draft.js';
import { chartName } from './history.js';
import { HYPOTHETICAL } from './problems.js';
import { resultOf } from './results.js';
import { inPlanRegister, salvage } from './register.js';
import type { Utterance } from './utterances.js';

export type AssessmentDraft = DraftOf<'assessment'>;
export type PlanDraft = DraftOf<'plan'>;

type PlanCategory = FactOf<'plan'>['category'];

const CATEGORY_CUES: readonly (readonly [PlanCategory, RegExp])[] = [
  [
    'follow_up',
    /\b(?:follow(?:-| )?up|come back|see (?:you|him|her|them) (?:back |again )?in|return (?:to clinic |in )|next (?:visit|appointment)|check back)\b/,
  ],
  [
    'referral',
    /\b(?:refer\w*|consult\w*|see (?:a|an|the) (?:\w+ )?(?:specialist|\w+ologist|surgeon|therapist)|physical therapy|occupational therapy|\w+ologist)\b/,
  ],
  [
    'test',
    /\b(?:order\w*|obtain|draw|check|get|repeat|schedule)\b[^.]*\b(?:x-?ray|mri|ct|scan|ultrasound|echo\w*|ekg|ecg|labs?|blood work|bloodwork|a1c|panel|test|culture|biopsy|study|mammogram|colonoscopy|urinalysis)\b/,
  ],
  [
    'procedure',
    /\b(?:injection|inject|surgery|surgical|procedure|biopsy|aspirat\w+|drain\w*|cast|splint|brace|sutures?|stitches|removal|excision|ablation|arthroscop\w+)\b/,
  ],
  [
    'medication',
    /\b(?:prescri\w+|mg|milligrams?|dose|medication|medicine|pills?|tablets?|inhaler|cream|ointment|increase|decrease|start(?:ing)? (?:him|her|them|you|the patient)? ?on|continue|stop|discontinue|refill|taper|switch)\b/,
  ],
];

/** What a plan item does: advice, a treatment step, a decision. */
const ACTION =
  /\b(?:advis\w+|recommend\w*|should|want (?:you|him|her|them|the patient) to|need to|make sure|avoid|continue|start|stop|take|use|apply|ice|rest|elevate|wear|brace|schedule|return|call|monitor|track|record|watch|limit|reduce|increase|decrease|try|give|put (?:you|him|her|them) (?:on|in)|treat\w*|surgery|therapy)\b/;

/** A statement naming the problem the next ones are about. */
const PROBLEM_NAMED =
  /^(?:(?:lastly|finally|next|and|so|now|also|then|second(?:ly)?|third(?:ly)?|first(?:ly)?|okay) ,? ?)*(?:for|regarding|as for|in terms of|with regards? to|now for|moving on to|onto|on to|so for|and for|now,? (?:for|regarding)) (?:his|her|their|the patient's|the|your) (?:(?:first|second|third|fourth|fifth|next|last|final|other|new|main) )?(?:problem|issue|concern|diagnosis|thing)?(?: of| with)? ?,? ?(?:(?:his|her|their|the patient's|the|your) )?([a-z][a-z0-9' -]{2,60}?)(?=,|$| is | has | we | i | it | this | that | which | you )/;

function categoryOf(text: string): PlanCategory {
  return CATEGORY_CUES.find(([, pattern]) => pattern.test(text))?.[0] ?? 'education';
}

/** Counselling in the chart's words: "I want him to weigh himself" → "Advised to weigh himself". */
function counselling(text: string): string {
  return text
    .replace(
      /(?<=^|, )i (?:really |also |just |definitely |certainly |do )*(?:want|would like|need|'d like) (?:him|her|them|the patient) to /i,
      (_said: string, offset: number) => (offset === 0 ? 'Advised to ' : 'advised to '),
    )
    .replace(/^(?:make sure|be sure) (?:he|she|they|the patient) /i, 'Advised to ')
    .replace(/\bcall me\b/gi, 'call the office')
    .replace(/\blet me know\b/gi, 'let the office know');
}

/**
 * The clinician's hedge as the chart writes it: "I think he is retaining fluid" is the
 * clinician's impression, charted "Suspect he is retaining fluid", not stated as settled.
 */
function impression(tokens: readonly string[]): readonly string[] {
  const text = tokens.join(' ');
  const hedged = /^(?:(?:so|that means|and|well|okay|now)(?: ,)? )*i (?:think|believe|suspect|feel)(?: that)? /i.exec(
    text,
  );
  if (hedged !== null) return ['Suspect', ...text.slice(hedged[0].length).split(' ')];
  // "This is consistent with a sprain", "it looks like you are managing it well": the subject goes.
  const framed = /^(?:(?:so|and|okay|now)(?: ,)? )*(?:this|it|that) (?:is|looks|seems|sounds)(?: like)? /i.exec(text);
  if (framed !== null) return text.slice(framed[0].length).split(' ');
  // "My assessment is that you have a lumbar strain" is charted as the diagnosis.
  const stated =
    /^(?:(?:so|and|okay|now)(?: ,)? )*(?:my )?(?:assessment|impression|diagnosis) (?:is|would be)(?: that)?(?: ,)? (?:(?:you|he|she|they) (?:have|has|had|are|is) )?(?:(?:a|an) )?/i.exec(
      text,
    );
  return stated === null || stated[0].length === text.length ? tokens : text.slice(stated[0].length).split(' ');
}

/** The tokens after a problem heading ("for your first problem of ankle pain, …"), its comma dropped. */
function afterHeading(tokens: readonly string[], heading: string): readonly string[] {
  const rest = tokens.slice(heading.trim().split(/\s+/).length);
  return rest[0] === ',' ? rest.slice(1) : rest;
}

function styled(tokens: readonly string[], kind: Utterance['kind'], gender: Gender): string | null {
  const said = kind === 'assessment' ? impression(tokens) : tokens;
  const rewritten = toThirdPerson(said, 'clinician', gender);
  const note = noteStyle(rewritten, kind, true);
  if (note === null) return null;
  const text = note.heading
    ? detokenize(note.tokens)
    : salvage(counselling(toNoteSentence(note.tokens)), inPlanRegister);
  return text === null || text.split(' ').length < 2 ? null : text;
}

/** What the visit decides, whenever it is said: an order, a prescription, a referral, a follow-up. */
/** Specimens sent off: a test ordered without an order verb. */
const SPECIMEN =
  /\b(?:sending|send|sent) (?:off )?(?:the |your |a |some )?(?:urine|blood|sample|swab|specimen|stool)\b/;

function isPlanItem(utterance: Utterance): boolean {
  const { kind } = utterance;
  if (utterance.phase === 'plan') {
    if (kind === 'assessment' || kind === 'follow_up') return true;
    // Talk in the plan part of the visit is a plan item only when it decides or advises something.
    return (
      kind === 'plan' &&
      (CATEGORY_CUES.some(([, pattern]) => pattern.test(utterance.text)) ||
        ACTION.test(utterance.text) ||
        utterance.text.split(' ').length >= 6)
    );
  }
  return (
    ORDER_CUES.test(utterance.text) ||
    SPECIMEN.test(utterance.text) ||
    (kind === 'follow_up' && utterance.phase !== 'history')
  );
}

function problemAssessment(problem: string, utterance: Utterance): AssessmentDraft {
  return {
    kind: 'assessment',
    text: problem,
    problem,
    statement: problem,
    polarity: 'present',
    subject: { type: 'patient' },
    speaker: utterance.speaker,
    source: turnsSource([utterance.turn]),
  };
}

export function assessmentPlanFacts(utterances: readonly Utterance[], gender: Gender): (AssessmentDraft | PlanDraft)[] {
  const drafts: (AssessmentDraft | PlanDraft)[] = [];
  let problem: string | null = null;
  for (const utterance of utterances) {
    if (utterance.question || (utterance.speaker !== 'clinician' && utterance.speaker !== 'unknown')) continue;
    const heading = utterance.phase === 'plan' ? PROBLEM_NAMED.exec(utterance.text) : null;
    const heard = heading?.[1]?.trim().replace(/^(?:problem|issue|concern|diagnosis|thing)$/, '');
    const named = heard === '' ? undefined : heard;
    if (named !== undefined && heading !== null) {
      problem = chartName(named);
      // The problem the clinician turns to is one they assessed, in their words.
      if (!drafts.some((draft) => draft.kind === 'assessment' && draft.problem === problem)) {
        drafts.push(problemAssessment(problem, utterance));
      }
      if (utterance.text.slice(heading[0].length).trim().split(' ').length < 3) continue;
    }
    // What follows the heading is what was said of the problem.
    const said = heading === null ? utterance.tokens : afterHeading(utterance.tokens, heading[0]);
    // A result read out in the plan part ("your x-ray shows fluid") is a result, filed as one.
    if (!isUsable(utterance.statement) || resultOf(utterance.text) !== null) continue;
    const ordered = isPlanItem(utterance);
    // An order that also says why ("… an ultrasound, to make sure there is no clot") is the order.
    const counsels = HYPOTHETICAL.test(utterance.text) && (!ordered || categoryOf(utterance.text) === 'education');
    if (!counsels && !ordered) continue;
    const text = styled(said, utterance.kind, gender);
    if (text === null) continue;
    const base = {
      polarity: 'present' as const,
      subject: { type: 'patient' as const },
      speaker: utterance.speaker,
      source: turnsSource([utterance.turn]),
    };
    if (!counsels && utterance.kind === 'assessment') {
      drafts.push({ kind: 'assessment', text, problem: problem ?? text, statement: text, ...base });
      continue;
    }
    const category = counsels ? 'education' : utterance.kind === 'follow_up' ? 'follow_up' : categoryOf(utterance.text);
    drafts.push({ kind: 'plan', text, problem, category, action: text, ...base });
  }
  return drafts;
}
