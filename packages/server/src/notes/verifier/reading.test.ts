import { describe, expect, it } from 'vitest';

import type { Fact } from '@chartwright/protocol';

import { contextText } from './evidence.js';
import { readFact } from './fact-reading.js';
import { clauseAt, findTerm, findWord, numbersOf, polarityAt, relativeSubject, sidesIn } from './reading.js';
import { turnSubjectFails } from './turn-subject.js';

const problem = (fields: Partial<Extract<Fact, { kind: 'problem' }>>): Fact => ({
  id: 'f1',
  kind: 'problem',
  text: 'fever',
  name: 'fever',
  polarity: 'present',
  subject: { type: 'patient' },
  speaker: 'patient',
  source: { turns: [1], context: [] },
  certainty: 'high',
  modifiers: [],
  ...fields,
});

describe('reading a sentence', () => {
  it('finds a word in any inflection, and a term where its clause holds its other words', () => {
    expect(findWord('no known allergies.', 'allergy')).toEqual({ start: 9, end: 18 });
    expect(findWord('headaches at night', 'headache')).toBeDefined();
    const text = 'endorses wrist pain. denies back pain.';
    expect(findTerm(text, ['back', 'pain'], 'pain')?.start).toBe(text.lastIndexOf('pain'));
  });

  it('reads negation at a word, within its clause', () => {
    const text = 'denies fever but reports cough.';
    expect(polarityAt(text, findWord(text, 'fever') ?? { start: 0, end: 0 })).toBe('absent');
    expect(polarityAt(text, findWord(text, 'cough') ?? { start: 0, end: 0 })).toBe('present');
  });

  it('cuts clauses at punctuation and conjunctions', () => {
    const text = "the patient's mother has diabetes and the patient has asthma.";
    expect(clauseAt(text, findWord(text, 'asthma') ?? { start: 0, end: 0 }).trim()).toBe('the patient has asthma');
  });

  it('reads sides, relatives and numbers', () => {
    expect([...sidesIn('pain in both knees')]).toEqual(['left', 'right']);
    expect([...sidesIn('come in right away')]).toEqual([]);
    expect(relativeSubject('her mother had breast cancer')).toBe('mother');
    expect(relativeSubject('her mother reports she has a fever')).toBeUndefined();
    expect(numbersOf('Lisinopril 10 mg, BP 120/80, HbA1c 7.4%.')).toEqual(['10', '120', '80', '7.4']);
    expect(numbersOf('i take ten milligrams twice a day', { inWords: true })).toContain('10');
  });
});

describe('reading a fact', () => {
  it('names a symptom by its term, negated as its polarity says', () => {
    expect(readFact(problem({ polarity: 'absent' })).term).toEqual({ words: ['fever'], head: 'fever', negated: true });
    expect(readFact(problem({ polarity: 'uncertain' })).term?.negated).toBeNull();
  });

  it('takes a finding said with its own negation as negated, and its sides from its words', () => {
    const finding: Fact = {
      ...problem({}),
      kind: 'exam',
      text: 'no swelling of the left ankle',
      system: 'Musculoskeletal',
      finding: 'no swelling of the left ankle',
      normal: true,
      polarity: 'absent',
    };
    const reading = readFact(finding);
    expect(reading.term?.negated).toBe(true);
    expect([...reading.sides]).toEqual(['left']);
  });

  it('gives a statement (plan, assessment, narrative) no term to check polarity against', () => {
    const plan: Fact = {
      ...problem({}),
      kind: 'plan',
      text: 'Follow up in 2 weeks.',
      problem: null,
      category: 'follow_up',
      action: 'Follow up in 2 weeks.',
    };
    expect(readFact(plan).term).toBeNull();
    expect(readFact(plan).text).toContain('2 weeks');
  });
});

describe('the subject check against the turns’ own words', () => {
  it("catches a relative's condition given to the patient, and passes it given to the relative", () => {
    const turns = ['my mother had breast cancer .'];
    expect(turnSubjectFails('History of breast cancer.', turns)).toBe(true);
    expect(turnSubjectFails("The patient's mother had breast cancer.", turns)).toBe(false);
    expect(turnSubjectFails('Breast cancer.', ['i had breast cancer and my mother had breast cancer .'])).toBe(false);
  });
});

describe('context text', () => {
  it('reads the value at an evidence path', () => {
    const context = { medical: { allergies: [{ name: 'Penicillin', reaction: 'rash' }] }, extra: 'Walk-in clinic.' };
    expect(contextText(context, 'medical.allergies[0]')).toBe('{"name":"penicillin","reaction":"rash"}');
    expect(contextText(context, 'extra')).toBe('walk-in clinic.');
    expect(contextText(context, 'medical.medications[3]')).toBe('');
  });
});
