import { describe, expect, it } from 'vitest';

import { parseConversation } from '../../text/parse-conversation.js';
import { exchangesOf } from './exchanges.js';
import { problemFacts } from './problems.js';
import { utterancesOf } from './utterances.js';

const problems = (text: string) => {
  const conversation = parseConversation(text);
  const utterances = utterancesOf(conversation);
  return problemFacts({ utterances, exchanges: exchangesOf(conversation, utterances) }).map((fact) => ({
    text: fact.text,
    polarity: fact.polarity,
    subject: fact.subject.type,
    turns: fact.source.turns,
  }));
};

describe('problem facts', () => {
  it('fuses a yes/no question with its answer', () => {
    expect(problems('[doctor] any chest pain or shortness of breath ?\n[patient] no .')).toEqual([
      { text: 'chest pain', polarity: 'absent', subject: 'patient', turns: [0, 1] },
      { text: 'shortness of breath', polarity: 'absent', subject: 'patient', turns: [0, 1] },
    ]);
  });

  it('lets the answer name its own polarity per topic', () => {
    const facts = problems('[doctor] any fever or chills ?\n[patient] no fever , but i have had some chills .');
    expect(facts).toContainEqual({ text: 'fever', polarity: 'absent', subject: 'patient', turns: [1] });
    expect(facts).toContainEqual({ text: 'chills', polarity: 'present', subject: 'patient', turns: [1] });
  });

  it('reads a self-correction as present', () => {
    expect(problems('[doctor] do you get headaches ?\n[patient] no … well , occasionally .')[0]).toMatchObject({
      text: 'headache',
      polarity: 'present',
    });
  });

  it('keeps a located complaint with its side', () => {
    expect(problems('[patient] my left knee has been hurting for 2 weeks .')[0]).toMatchObject({
      text: 'left knee pain',
      polarity: 'present',
    });
  });

  it('never makes a relative’s illness or a hypothetical the patient’s', () => {
    expect(problems('[patient] my mother had terrible headaches .')).toEqual([]);
    expect(problems('[doctor] if you get a fever , call me .')).toEqual([]);
  });
});
