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
import { ORDER_CUES, TIMED_FOLLOW_UP } from '../engines/extractive/lexicons.js';
import { turnsSource, type DraftOf } from './draft.js';
import { chartName } from './history.js';
import { conditionsIn } from './condition-mentions.js';
import { symptomsIn } from './symptom-mentions.js';
import { HYPOTHETICAL } from './problems.js';
import { TESTS } from './lexicon/tests.js';
import { resultOf, testsNamed } from './results.js';
import { completed, inPlanRegister, salvage } from './register.js';
import { cueText, type Utterance } from './utterances.js';

export type AssessmentDraft = DraftOf<'assessment'>;
export type PlanDraft = DraftOf<'plan'>;

type PlanCategory = FactOf<'plan'>['category'];

const CATEGORY_CUES: readonly (readonly [PlanCategory, RegExp])[] = [
  [
    'follow_up',
    // "Before your next visit" times something else; it is not the follow-up.
    /\b(?:follow(?:-| )?up|come back|see (?:you|him|her|them) (?:back |again )?in|return (?:to clinic |in )|(?<!before (?:your|his|her|the) )next (?:visit|appointment)|check back)\b/,
  ],
  [
    'referral',
    /\b(?:refer\w*|consult\w*|see (?:a|an|the) (?:\w+ )?(?:specialist|\w+ologist|surgeon|therapist)|physical therapy|occupational therapy|\w+ologist)\b/,
  ],
  [
    'test',
    /\b(?:order\w*|obtain|draw|check|get|repeat|schedule|send\w*)\b[^.]*\b(?:x-?ray|mri|ct|scan|ultrasound|echo\w*|ekg|ecg|labs?|blood work|bloodwork|a1c|panel|test|culture|biopsy|study|mammogram|colonoscopy|urinalysis)\b/,
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

/** A clause said before the main one ("before we add another pill, …") sets the scene, not the step. */
const LEADING_CLAUSE = /^(?:before|until|since|because|while|after|once|as) [^,]+, /;

function categoryOf(said: string): PlanCategory {
  const text = said.replace(LEADING_CLAUSE, '');
  const cued = CATEGORY_CUES.find(
    ([category, pattern]) => pattern.test(text) || (category === 'test' && ordersTest(text)),
  );
  return cued?.[0] ?? 'education';
}

/** Asking for a test in the first person or as an instruction: "I want an ultrasound", "get the lipids drawn". */
const TEST_REQUEST =
  /(?:^|\b(?:i|we)(?: (?:will|would|am|are|really|also|just|definitely|need to|want to|going to|like to))* |\blet(?:'s| us) )(?:order|obtain|get|draw|check|repeat|schedule|want|need|like|send|sending|swab|test|have (?:the|a|our) (?:nurse|lab|medical assistant|assistant|tech))\b/;
/** A test done before ("we had to get an x-ray before you came in") or not wanted is not ordered now. */
const NOT_ORDERED = /\b(?:did|had|already|got|came|was|were|not)\b/;

function ordersTest(text: string): boolean {
  const [test] = testsNamed(text);
  if (test === undefined) return false;
  const before = text.slice(0, test.start);
  return TEST_REQUEST.test(before) && !NOT_ORDERED.test(before);
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
/** What a suspicion is about when it names no condition or symptom from the lexicons. */
const CLINICAL =
  /\b(?:fluid|infection|inflammation|inflamed|fracture|sprain|strain|tear|\w+itis|\w+osis|viral|virus|bacterial|congestion|disease|syndrome|deficiency|lesion|mass|nodule|cancer|tumou?r|stones?|clot|blockage|injur\w+|damage|reaction|side effect|controlled|uncontrolled|control|stable|worse|worsening|improv\w+|retaining|contusion|bruis\w+|abrasion|laceration|hematoma|concussion|swelling|edema)\b/i;

/** An announcement of the assessment before it is given: "let's talk about my assessment and plan for you, so". */
const ANNOUNCED =
  /^.*?\b(?:assessment and (?:my )?plan|my assessment|my impression)(?: (?:for|with) (?:you|him|her|them))?(?: ,)? (?:so |okay |now )*(?=(?:you|he|she|they) (?:have|has)\b)/i;
/** "You have what we call an MCL strain" is charted as the diagnosis. */
const YOU_HAVE =
  /^(?:(?:so|and|okay|now)(?: ,)? )*(?:you|he|she|they) (?:have|has) (?:got )?(?:what (?:we|i) (?:would )?call )?(?:(?:a|an) )?/i;

function impression(tokens: readonly string[]): readonly string[] {
  const said = tokens.join(' ');
  const text = said.slice(ANNOUNCED.exec(said)?.[0].length ?? 0);
  const diagnosed = YOU_HAVE.exec(text);
  if (diagnosed !== null && CLINICAL.test(text.slice(diagnosed[0].length)))
    return text.slice(diagnosed[0].length).split(' ');
  const hedged = /^(?:(?:so|that means|and|well|okay|now)(?: ,)? )*i (?:think|believe|suspect|feel)(?: that)? /i.exec(
    text,
  );
  if (hedged !== null) {
    const suspected = text.slice(hedged[0].length);
    // "I think you're doing a good job" is encouragement, not a suspicion to chart.
    if (!CLINICAL.test(suspected) && conditionsIn(suspected).length === 0 && symptomsIn(suspected).length === 0)
      return [];
    return ['Suspect', ...suspected.split(' ')];
  }
  // "This is consistent with a sprain", "it looks like you are managing it well": the subject goes.
  const framed = /^(?:(?:so|and|okay|now)(?: ,)? )*(?:this|it|that) (?:is|looks|seems|sounds)(?: like)? /i.exec(text);
  if (framed !== null) return text.slice(framed[0].length).split(' ');
  // "My assessment is that you have a lumbar strain" is charted as the diagnosis.
  const stated =
    /^(?:(?:so|and|okay|now)(?: ,)? )*(?:my )?(?:assessment|impression|diagnosis) (?:is|would be)(?: that)?(?: ,)? (?:(?:you|he|she|they) (?:have|has|had|are|is) )?(?:(?:a|an) )?/i.exec(
      text,
    );
  if (stated === null || stated[0].length === text.length) return text === said ? tokens : text.split(' ');
  return text.slice(stated[0].length).split(' ');
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
  const whole = text === null ? null : completed(text);
  return whole === null || whole.split(' ').length < 2 ? null : whole;
}

/** The clinician about to ask something ("I was just going to ask if …"): a question, not a plan. */
const ASKING = /\b(?:going to|want to|wanted to|let me|need to|meant to) ask\b/;

/** Specimens sent off: a test ordered without an order verb. */
const SPECIMEN =
  /\b(?:sending|send|sent) (?:off )?(?:the |your |a |some )?(?:urine|blood|sample|swab|specimen|stool)\b/;

/** A procedure the clinician will do: "we'll numb it up and drain it". */
const PROCEDURE_TO_DO =
  /\b(?:i|we) (?:will|are going to|am going to)(?: [a-z]+){0,4} (?:drain|inject|remove|excise|aspirate|biopsy|lance|freeze|suture|stitch)\b/;

/** What the clinician asks of the patient: "I'd like you to see physical therapy". */
const REQUEST =
  /\b(?:i|we)(?: would| really| also)? (?:like|want|need) (?:you|him|her|them|the patient) to (?:see|get|start|stop|continue|try|cut|limit|avoid|lose|wear|ice|elevate|follow|come back|schedule|go to|use|apply|call|monitor|weigh|record|drink|eat|quit)\b/;

/** Advice on what to do at home: "try to cut back on the salt", "you need to drink more water". */
const ADVICE =
  /(?:(?:^|, )(?:please )?try to|\bbe sure to|\byou (?:should|need to|have to)|\b(?:i|we) (?:would )?(?:recommend|suggest|advise))(?: [a-z]+){0,2}? (?:cut (?:back|down)|reduce|limit|avoid|lose|walk|exercise|eat|drink|quit|stop smoking|get more|stretch|elevate|ice|rest)\b/;

/** Something to try: "let's try omeprazole", a decision when it names what (not "let's try describing it"). */
const TRIAL = /\b(?:let's|let us|we will|we can) try\b/;

/** The clinician moving the patient's body to examine it ("how about if I twist it that way"): the exam, not counselling. */
const EXAM_MANEUVER =
  /\bif (?:i|we) (?:\w+ )?(?:bend|twist|push|press|move|lift|touch|squeeze|pull|turn|rotate|flex|extend|tap|straighten|raise|lower)\b/;

/** Showing the patient out ("come with me and we'll get you checked out"): the end of the visit, not a plan item. */
const SHOWING_OUT =
  /\b(?:come with me|come this way|follow me|(?:get|got|be) (?:you |him |her |them )?checked out|have a seat|hop (?:up|down|off))\b/;

/** A decision said outright: charted whatever the part of the visit it comes in. */
function decidedOutright(utterance: Utterance): boolean {
  const { text } = utterance;
  if (ORDER_CUES.test(text) || SPECIMEN.test(text) || TIMED_FOLLOW_UP.test(text) || PROCEDURE_TO_DO.test(text))
    return true;
  if (TRIAL.test(text) && categoryOf(text) !== 'education') return true;
  // During the examination, what the patient is asked to do is for the examination ("walk for me").
  return ordersTest(text) || (utterance.phase !== 'exam' && (REQUEST.test(text) || ADVICE.test(text)));
}

/** What the visit decides, whenever it is said: an impression, an order, a referral, a follow-up. */
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
  return kind === 'assessment' || decidedOutright(utterance) || (kind === 'follow_up' && utterance.phase !== 'history');
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

/** A follow-up said as the last clause of a statement: "…, and I will see you in 6 months". */
const FOLLOW_UP_CLAUSE = new RegExp(
  String.raw`^(?:and |then )*(?:(?:i|we) (?:will|would like to|want to) |let us |let's )?${TIMED_FOLLOW_UP.source}`,
);

/** "Get the labs drawn before your visit, and I will see you in 6 months": an order and a follow-up, two items. */
function followUpApart(said: readonly string[]): { tokens: readonly string[]; followUp: boolean }[] {
  const at = said.findIndex(
    (token, index) => token === ',' && index >= 3 && FOLLOW_UP_CLAUSE.test(cueText(said.slice(index + 1))),
  );
  if (at < 0) return [{ tokens: said, followUp: false }];
  const rest = said.slice(at + 1);
  const joined = rest.findIndex((token) => !/^(?:and|then)$/i.test(token));
  return [
    { tokens: said.slice(0, at), followUp: false },
    { tokens: rest.slice(joined), followUp: true },
  ];
}

/** Headings that name no problem: the part of the note ("for your assessment and plan") or a study read out ("for the chest x-ray"). */
const NO_PROBLEM =
  /^(?:problem|issue|concern|diagnosis|thing|assessment(?: and plan)?|plan|results?|exam|examination)$/;
const MAX_STUDY_HEADING_WORDS = 3;

function namesProblem(heard: string): boolean {
  if (NO_PROBLEM.test(heard)) return false;
  // A laboratory value can be the problem ("for your cholesterol"); an image or a tracing cannot.
  const studies = testsNamed(heard).filter((test) => TESTS.find((entry) => entry.name === test.name)?.kind !== 'lab');
  return studies.length === 0 || heard.split(' ').length > MAX_STUDY_HEADING_WORDS;
}

export function assessmentPlanFacts(utterances: readonly Utterance[], gender: Gender): (AssessmentDraft | PlanDraft)[] {
  const drafts: (AssessmentDraft | PlanDraft)[] = [];
  let problem: string | null = null;
  for (const utterance of utterances) {
    if (utterance.question || (utterance.speaker !== 'clinician' && utterance.speaker !== 'unknown')) continue;
    // Before the plan part of the visit, "for your diabetes, …" heads only a decision about it.
    const heading = utterance.phase === 'plan' || isPlanItem(utterance) ? PROBLEM_NAMED.exec(utterance.text) : null;
    const heard = heading?.[1]?.trim();
    const named = heard === undefined || !namesProblem(heard) ? undefined : heard;
    if (named !== undefined && heading !== null) {
      problem = chartName(named);
      // The problem the clinician turns to is one they assessed, in their words.
      if (!drafts.some((draft) => draft.kind === 'assessment' && draft.problem === problem)) {
        drafts.push(problemAssessment(problem, utterance));
      }
      if (utterance.text.slice(heading[0].length).trim().split(' ').length < 3) continue;
    }
    // A result read out in the plan part ("your x-ray shows fluid") is a result, filed as one.
    if (!isUsable(utterance.statement) || resultOf(utterance.text) !== null || ASKING.test(utterance.text)) continue;
    // What follows the heading is what was said of the problem.
    const said = heading === null ? utterance.tokens : afterHeading(utterance.tokens, heading[0]);
    const parts = followUpApart(said);
    // A statement said as one item is judged whole, its heading included.
    const pieces: Utterance[] =
      parts.length === 1
        ? [{ ...utterance, tokens: said }]
        : parts.map((part) => ({
            ...utterance,
            text: cueText(part.tokens),
            tokens: part.tokens,
            kind: part.followUp ? 'follow_up' : utterance.kind,
          }));
    for (const piece of pieces) {
      const item = planItemOf(piece, problem, gender);
      if (item !== null) drafts.push(item);
    }
  }
  return drafts;
}

/** The assessment or plan item a clinician's statement (or a part of one) is, if any. */
function planItemOf(piece: Utterance, problem: string | null, gender: Gender): AssessmentDraft | PlanDraft | null {
  if (SHOWING_OUT.test(piece.text)) return null;
  const ordered = isPlanItem(piece);
  // An order that also says why ("… an ultrasound, to make sure there is no clot") is the order.
  const counsels =
    HYPOTHETICAL.test(piece.text) &&
    !EXAM_MANEUVER.test(piece.text) &&
    (!ordered || categoryOf(piece.text) === 'education');
  if (!counsels && !ordered) return null;
  const text = styled(piece.tokens, piece.kind, gender);
  if (text === null) return null;
  const base = {
    polarity: 'present' as const,
    subject: { type: 'patient' as const },
    speaker: piece.speaker,
    source: turnsSource([piece.turn]),
  };
  if (!counsels && piece.kind === 'assessment') {
    return { kind: 'assessment', text, problem: problem ?? text, statement: text, ...base };
  }
  const category = counsels ? 'education' : piece.kind === 'follow_up' ? 'follow_up' : categoryOf(piece.text);
  return { kind: 'plan', text, problem, category, action: text, ...base };
}
