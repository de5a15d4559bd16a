import { describe, expect, it } from 'vitest';

import type { Fact } from '@chartwright/protocol';

import { parseConversation } from '../../text/parse-conversation.js';
import { extractFacts } from '../facts/sheet.js';
import type { GeneratedSection, NoteContext, NoteSentence } from '../generator.js';
import { findCuratedTemplate } from '../templates.js';
import { verifyNote } from './verify.js';

// A visit written for these tests.
const VISIT = `[doctor] what brings you in today ?
[patient] my right knee has been hurting for three weeks .
[doctor] any fever ?
[patient] no fever .
[doctor] any allergies to medicines ?
[patient] no , no allergies .
[doctor] what do you take ?
[patient] i take lisinopril ten milligrams once a day .
[doctor] any cancer in the family ?
[patient] my mother had breast cancer .
[doctor] on exam there is swelling of the right knee . i think this is a knee sprain . take ibuprofen four hundred milligrams twice a day and follow up in two weeks .`;

const template = findCuratedTemplate('history_and_physical');
if (template === undefined) throw new Error('no history_and_physical template');
const conversation = parseConversation(VISIT);
const context: NoteContext = { medical: { allergies: [{ name: 'Penicillin', reaction: 'rash' }] } };
const { facts } = extractFacts({ template, conversation, context });

function factId(test: (fact: Fact) => boolean): string {
  const found = facts.find(test);
  if (found === undefined) throw new Error('the visit lacks a fact these tests need');
  return found.id;
}
const fever = factId((fact) => fact.kind === 'problem' && fact.name === 'fever');
const knee = factId((fact) => fact.kind === 'problem' && fact.name === 'knee pain');
const lisinopril = factId((fact) => fact.kind === 'medication' && fact.name === 'lisinopril');
const noAllergies = factId((fact) => fact.kind === 'allergy' && fact.substance === null);
const assessment = factId((fact) => fact.kind === 'assessment');
const penicillin = factId((fact) => fact.kind === 'allergy' && fact.substance === 'Penicillin');

const cites = (text: string, ids: string[], turns: number[] = []): NoteSentence => ({
  text,
  evidence: { turns, context: [] },
  facts: ids,
});
const section = (...sentences: NoteSentence[]): GeneratedSection[] => [{ key: 'hpi', label: 'HPI', sentences }];
const verify = (sentences: NoteSentence[], dropContradictions = false) =>
  verifyNote(section(...sentences), { facts, conversation, context }, { dropContradictions });
const judged = (sentence: NoteSentence) => {
  const result = verify([sentence]);
  return { support: result.sections[0]?.sentences[0]?.support, codes: result.flags.map((flag) => flag.code) };
};

describe('the verifier, sentence by sentence', () => {
  it('passes sentences that state their facts as said', () => {
    expect(judged(cites('Denies fever.', [fever]))).toEqual({ support: 'stated', codes: [] });
    expect(judged(cites('Right knee pain for 3 weeks.', [knee]))).toEqual({ support: 'stated', codes: [] });
    expect(judged(cites('Lisinopril 10 mg daily.', [lisinopril]))).toEqual({ support: 'stated', codes: [] });
    expect(judged(cites('No known allergies.', [noAllergies]))).toEqual({ support: 'stated', codes: [] });
  });

  it('catches a flipped negation, either way', () => {
    expect(judged(cites('Reports fever.', [fever])).codes).toEqual(['polarity_mismatch']);
    expect(judged(cites('Reports allergies to medicines.', [noAllergies])).codes).toEqual(['polarity_mismatch']);
    expect(judged(cites('Denies knee pain.', [knee])).codes).toEqual(['polarity_mismatch']);
  });

  it('catches a dose or number nobody said', () => {
    expect(judged(cites('Lisinopril 20 mg daily.', [lisinopril]))).toEqual({
      support: 'unsupported',
      codes: ['number_mismatch'],
    });
    expect(judged(cites('Right knee pain for 6 weeks.', [knee])).codes).toEqual(['number_mismatch']);
  });

  it('catches the wrong side', () => {
    expect(judged(cites('Left knee pain for 3 weeks.', [knee])).codes).toEqual(['laterality_mismatch']);
  });

  it("catches a relative's condition given to the patient, and the patient's to a relative", () => {
    expect(judged(cites('The patient has a history of breast cancer.', [], [9])).codes).toEqual(['subject_mismatch']);
    expect(judged(cites("The patient's mother had breast cancer.", [], [9])).codes).toEqual([]);
    expect(judged(cites('Her mother has fever.', [fever])).codes).toContain('subject_mismatch');
  });

  it('classes chart sentences, clinician abstractions, uncited and unsupported sentences', () => {
    expect(judged(cites('Penicillin allergy: rash (from chart).', [penicillin]))).toEqual({
      support: 'chart',
      codes: [],
    });
    expect(judged(cites('Right knee sprain, likely ligamentous.', [assessment])).support).toBe('inferred');
    expect(judged({ text: 'Smokes two packs a day.', evidence: { turns: [], context: [] } })).toEqual({
      support: 'unsupported',
      codes: ['uncited_sentence'],
    });
    expect(judged(cites('Travels often for work.', [fever]))).toEqual({
      support: 'unsupported',
      codes: ['unsupported_sentence'],
    });
  });

  it('matches a sentence that cites only turns to the facts of those turns it mentions', () => {
    const result = verify([{ text: 'Denies fever.', evidence: { turns: [2, 3], context: [] } }]);
    expect(result.sections[0]?.sentences[0]).toMatchObject({ support: 'stated', facts: [fever] });
    const flipped = verify([{ text: 'Reports fever.', evidence: { turns: [2, 3], context: [] } }]);
    expect(flipped.flags.map((flag) => flag.code)).toEqual(['polarity_mismatch']);
  });
});

describe('the verifier, over a note', () => {
  const draft = [
    cites('Denies fever.', [fever]),
    cites('Reports fever.', [fever]),
    cites('Lisinopril 20 mg daily.', [lisinopril]),
    { text: 'Smokes two packs a day.', evidence: { turns: [], context: [] } },
  ];

  it('flags every failing sentence in place when asked to keep them (offline engines)', () => {
    const result = verify(draft);
    expect(result.sections[0]?.sentences.map((sentence) => sentence.support)).toEqual([
      'stated',
      'unsupported',
      'unsupported',
      'unsupported',
    ]);
    expect(result.flags.map((flag) => [flag.code, flag.section, flag.sentence])).toEqual([
      ['polarity_mismatch', 'hpi', 1],
      ['number_mismatch', 'hpi', 2],
      ['uncited_sentence', 'hpi', 3],
    ]);
    expect(result.verification).toEqual({ sentences: 4, dropped: 0, flagged: 3 });
  });

  it('drops contradictions and flags the uncited when asked to (LLM engines)', () => {
    const result = verify(draft, true);
    expect(result.sections[0]?.sentences.map((sentence) => sentence.text)).toEqual([
      'Denies fever.',
      'Smokes two packs a day.',
    ]);
    expect(result.flags.map((flag) => [flag.code, flag.sentence])).toEqual([
      ['polarity_mismatch', null],
      ['number_mismatch', null],
      ['uncited_sentence', 1],
    ]);
    expect(result.flags[0]?.message).toMatch(/removed/);
    expect(result.verification).toEqual({ sentences: 4, dropped: 2, flagged: 1 });
  });

  it('never puts note or visit words into a flag message', () => {
    for (const flag of verify(draft).flags) expect(flag.message).not.toMatch(/fever|lisinopril|smokes/i);
  });
});
