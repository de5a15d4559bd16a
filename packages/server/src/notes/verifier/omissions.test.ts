import { describe, expect, it } from 'vitest';

import { parseConversation } from '../../text/parse-conversation.js';
import { extractFacts } from '../facts/sheet.js';
import type { GeneratedSection } from '../generator.js';
import { findCuratedTemplate } from '../templates.js';
import { omissionsOf } from './omissions.js';

// A visit written for this test.
const VISIT = `[doctor] what brings you in ?
[patient] i have had a cough for two weeks . no fever .
[doctor] on exam there is wheezing on the left side . i am going to start you on an albuterol inhaler and order a chest x-ray .`;

const template = findCuratedTemplate('soap');
if (template === undefined) throw new Error('no soap template');
const { facts } = extractFacts({ template, conversation: parseConversation(VISIT), context: {} });
const note = (...texts: string[]): GeneratedSection[] => [
  {
    key: 'subjective',
    label: 'Subjective',
    sentences: texts.map((text) => ({ text, evidence: { turns: [1], context: [] } })),
  },
];

describe('the omission report', () => {
  it('lists the present problems, medication changes, abnormal findings and plan items the note leaves out', () => {
    const omitted = omissionsOf(facts, note('Denies fever.'));
    const kinds = omitted.map((omission) => omission.kind);
    expect(kinds).toContain('problem');
    expect(kinds).toContain('exam');
    expect(kinds).toContain('plan');
    expect(omitted.find((omission) => omission.kind === 'problem')?.text).toBe('cough');
    // A pertinent negative is not an omission.
    expect(omitted.some((omission) => omission.text === 'fever')).toBe(false);
    for (const omission of omitted) expect(facts.some((fact) => fact.id === omission.fact)).toBe(true);
  });

  it('counts a fact as stated when a sentence cites it or says its words', () => {
    const cough = facts.find((fact) => fact.kind === 'problem' && fact.name === 'cough');
    expect(cough).toBeDefined();
    const cited: GeneratedSection[] = [
      {
        key: 's',
        label: 'S',
        sentences: [{ text: 'Two weeks.', evidence: { turns: [1], context: [] }, facts: [cough?.id ?? ''] }],
      },
    ];
    expect(omissionsOf(facts, cited).some((omission) => omission.fact === cough?.id)).toBe(false);
    expect(omissionsOf(facts, note('Cough for 2 weeks.')).some((omission) => omission.fact === cough?.id)).toBe(false);
    const everything = note(
      'Cough for 2 weeks.',
      'Wheezing on the left.',
      'Start albuterol inhaler and order a chest x-ray.',
    );
    expect(omissionsOf(facts, everything)).toEqual([]);
  });
});
