/**
 * The assessment and the plan, problem by problem, in the clinician's voice where clinicians use
 * it: each problem with the clinician's impression, then its plan items; follow-up last.
 */

import type { FactSheet } from '../facts/sheet.js';
import { capitalize, ofKind, sentence, type Written } from './phrasing.js';

/** Problem by problem: its name, then what the clinician said of it ("Hypertension. Well managed."). */
export function assessmentSentences(sheet: FactSheet): Written[] {
  const assessments = ofKind(sheet.facts, 'assessment');
  const problems = [...new Set(assessments.map((assessment) => assessment.problem))];
  return problems.flatMap((problem) =>
    assessments
      .filter((assessment) => assessment.problem === problem)
      .sort((a, b) => Number(b.statement === b.problem) - Number(a.statement === a.problem))
      .map((assessment) => ({
        text:
          assessment.statement === assessment.problem
            ? sentence(capitalize(assessment.problem))
            : sentence(assessment.statement),
        facts: [assessment],
      })),
  );
}

/** The steps of one problem together, in the order the problems came up; follow-up last. */
export function planSentences(sheet: FactSheet): Written[] {
  const items = ofKind(sheet.facts, 'plan');
  const problems = [...new Set(items.map((item) => item.problem))];
  const ordered = [
    ...problems.flatMap((problem) => items.filter((item) => item.problem === problem && item.category !== 'follow_up')),
    ...items.filter((item) => item.category === 'follow_up'),
  ];
  return ordered.map((item) => ({ text: sentence(item.action), facts: [item] }));
}
