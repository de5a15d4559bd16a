import { describe, expect, it } from 'vitest';

import type { Conversation } from '../../text/conversation.js';
import { parseConversation } from '../../text/parse-conversation.js';
import { extractFacts } from '../facts/sheet.js';
import { findCuratedTemplate } from '../templates.js';
import { verifyNote } from './verify.js';

// A visit written for this test, with the recognizer unsure of the dose.
const parsed = parseConversation(`[doctor] what do you take ?
[patient] i take lisinopril ten milligrams once a day .`);
const confidences: Record<string, number> = { ten: 0.41 };
const conversation: Conversation = {
  turns: parsed.turns.map((turn) => ({
    ...turn,
    words: turn.text.split(/\s+/).map((word) => ({ word, confidence: confidences[word] ?? 0.95 })),
  })),
};

describe('low-confidence review flags', () => {
  const template = findCuratedTemplate('soap');
  if (template === undefined) throw new Error('no soap template');
  const { facts } = extractFacts({ template, conversation, context: {} });
  const medication = facts.find((fact) => fact.kind === 'medication');

  it('flags a fact resting on a weighty word heard under the threshold, with the word, turn and confidence', () => {
    expect(medication?.certainty).toBe('low');
    const sentences = [
      { text: 'Lisinopril 10 mg daily.', evidence: { turns: [1], context: [] }, facts: [medication?.id ?? ''] },
    ];
    const { flags } = verifyNote(
      [{ key: 'subjective', label: 'Subjective', sentences }],
      { facts, conversation, context: {} },
      {
        dropContradictions: false,
      },
    );
    expect(flags).toEqual([
      {
        code: 'low_confidence_word',
        message: expect.any(String) as string,
        section: 'subjective',
        sentence: 0,
        facts: [medication?.id],
        words: [{ word: 'ten', confidence: 0.41, turn: 1 }],
      },
    ]);
  });

  it('points at no sentence when the note leaves the fact out', () => {
    const { flags } = verifyNote([], { facts, conversation, context: {} }, { dropContradictions: false });
    expect(flags).toMatchObject([{ code: 'low_confidence_word', section: null, sentence: null }]);
  });
});
