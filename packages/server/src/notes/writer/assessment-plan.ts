/**
 * The assessment and the plan, problem by problem, in the clinician's voice where clinicians use
 * it: each problem with the clinician's impression, then its plan items; follow-up last.
 */
import type { Fact, FactOf } from '@chartwright/protocol';

import type { FactSheet } from '../facts/sheet.js';
import { capitalize, sentence, type Written } from './phrasing.js';

const ofKind = <K extends Fact['kind']>(facts: readonly Fact[], kind: K): FactOf<K>[] =>
  facts.filter((fact): fact is FactOf<K> => fact.kind === kind);

export function assessmentSentences(sheet: FactSheet): Written[] {
  return ofKind(sheet.facts, 'assessment').map((assessment) => ({
    text:
      assessment.statement === assessment.problem
        ? sentence(capitalize(assessment.problem))
        : sentence(assessment.statement),
    facts: [assessment],
  }));
}

export function planSentences(sheet: FactSheet): Written[] {
  const items = ofKind(sheet.facts, 'plan');
  const ordered = [
    ...items.filter((item) => item.category !== 'follow_up'),
    ...items.filter((item) => item.category === 'follow_up'),
  ];
  return ordered.map((item) => ({ text: sentence(item.action), facts: [item] }));
}
