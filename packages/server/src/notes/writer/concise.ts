/**
 * The `concise` style: a primary-care note of terse, problem-oriented lines — the complaint with
 * its pertinent negatives in one line, lists on one line each, abnormal findings before normal
 * ones, results as test and outcome, each problem by name with its short impressions, and the
 * plan's decisions without the counselling talk around them. Written from the same facts as the
 * detailed note, so it states nothing the detailed one does not.
 */
import type { Kind } from '../engines/extractive/lexicons.js';
import { chartQuantity } from '../facts/quantity.js';
import type { FactSheet } from '../facts/sheet.js';
import { assessmentSentences, planSentences } from './assessment-plan.js';
import { chartLists } from './chart-lists.js';
import { findingSentences } from './findings.js';
import { familyHistory, pastHistory, problemPhrase, socialHistory } from './history.js';
import {
  charted,
  chiefComplaint,
  labelled,
  listOf,
  ofKind,
  sentence,
  subjectWord,
  type NoteParts,
  type Written,
} from './phrasing.js';

/** Past this many words a sentence is talk, not a concise line. */
const MAX_WORDS = 12;
const MAX_FINDINGS = 4;
const MAX_PLAN_ITEMS = 5;

const wordCount = (written: Written) => written.text.split(/\s+/).length;
const short = (written: Written) => wordCount(written) <= MAX_WORDS;

/** "Reports cough for 2 weeks, worse at night. Denies fever or chills." */
function complaintLine(sheet: FactSheet): Written[] {
  const own = ofKind(sheet.facts, 'problem').filter((problem) => problem.subject.type === 'patient');
  const present = own.filter((problem) => problem.polarity === 'present');
  const absent = own.filter((problem) => problem.polarity === 'absent');
  const lines: Written[] = [];
  if (present.length > 0) {
    const phrases = present.map((problem) => problemPhrase(problem, sheet.gender));
    lines.push({ text: sentence(`${subjectWord(sheet.gender)} reports ${listOf(phrases)}`), facts: present });
  }
  if (absent.length > 0) {
    lines.push({
      text: sentence(
        `Denies ${listOf(
          absent.map((problem) => problem.text),
          'or',
        )}`,
      ),
      facts: absent,
    });
  }
  if (lines.length > 0) return lines;
  // Nothing the patient complained of: the visit's own first statement says why they came.
  const story = ofKind(sheet.facts, 'narrative').find((fact) => fact.topic === 'present_illness');
  return story === undefined ? [] : [{ text: story.statement, facts: [story] }];
}

/** Abnormal findings first, a few at most. */
function findings(exam: readonly Written[]): Written[] {
  const abnormal = (written: Written) => written.facts.some((fact) => fact.kind === 'exam' && !fact.normal);
  return [...exam.filter(abnormal), ...exam.filter((written) => !abnormal(written))]
    .filter(short)
    .slice(0, MAX_FINDINGS);
}

/** A result as its test and outcome when the statement of it is long. */
function results(sheet: FactSheet): Written[] {
  return ofKind(sheet.facts, 'result').map((result) => {
    // An interpretation as long as the statement is the statement itself, not an outcome.
    const interpretation =
      result.interpretation !== undefined && result.interpretation.split(/\s+/).length <= MAX_WORDS
        ? result.interpretation
        : '';
    const outcome = [result.value === undefined ? '' : chartQuantity(result.value, result.unit), interpretation]
      .filter((part) => part !== '')
      .join(', ');
    const long = result.text.split(/\s+/).length > MAX_WORDS && result.test !== 'result' && outcome !== '';
    return { text: sentence(charted(result, long ? `${result.test}: ${outcome}` : result.text)), facts: [result] };
  });
}

/** The plan's decisions: orders, medicines, referrals, procedures, follow-up; advice only when short. */
function plan(sheet: FactSheet): Written[] {
  const decisions = planSentences(sheet).filter((written) =>
    written.facts.some((fact) => fact.kind === 'plan' && (fact.category !== 'education' || short(written))),
  );
  return decisions.filter((written) => wordCount(written) <= 2 * MAX_WORDS).slice(0, MAX_PLAN_ITEMS);
}

export function conciseParts(sheet: FactSheet, own: (kind: Kind) => boolean): NoteParts {
  const lists = chartLists(sheet);
  const found = findingSentences(sheet);
  return {
    chief_complaint: chiefComplaint(sheet, own('chief_complaint')),
    hpi: complaintLine(sheet),
    past_history: labelled('Past history', pastHistory(sheet, { storyHere: false })),
    family_history: labelled('Family history', familyHistory(sheet)),
    social_history: labelled('Social history', socialHistory(sheet)),
    medications: labelled('Medications', lists.medications),
    allergies: labelled('Allergies', lists.allergies),
    vitals: found.vitals,
    exam: findings(found.exam),
    results: results(sheet),
    assessment: assessmentSentences(sheet).filter(short),
    plan: plan(sheet),
  };
}
