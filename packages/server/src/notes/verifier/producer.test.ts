import { describe, expect, it } from 'vitest';

import { parseConversation } from '../../text/parse-conversation.js';
import { extractiveGenerator } from '../engines/extractive/index.js';
import { singleEngine, type GenerationInput, type NoteGenerator } from '../generator.js';
import { findCuratedTemplate } from '../templates.js';
import { verified } from './producer.js';

// A visit written for this test.
const VISIT = `[doctor] good morning , what brings you in ?
[patient] i have had a cough for two weeks and it is worse at night .
[doctor] any fever or chest pain ?
[patient] no fever . no chest pain .
[doctor] what medicines do you take ?
[patient] i take lisinopril ten milligrams once a day .
[doctor] your lungs are clear on exam . i think this is a viral bronchitis . let us order a chest x-ray and follow up in two weeks .`;

const template = findCuratedTemplate('history_and_physical');
if (template === undefined) throw new Error('no history_and_physical template');
const input: GenerationInput = {
  template,
  conversation: parseConversation(VISIT),
  context: { medical: { allergies: [{ name: 'Penicillin', reaction: 'rash' }] } },
};

describe('verified(): every engine’s note goes through the verifier', () => {
  it.each([extractiveGenerator])('checks every sentence of the $engine.name engine', async (engine) => {
    const outcome = await verified(singleEngine(engine))(input);
    expect(outcome.engine).toEqual(engine.engine);
    const sentences = outcome.note.sections.flatMap((section) => section.sentences);
    expect(sentences.length).toBeGreaterThan(3);
    for (const sentence of sentences) expect(sentence.support, sentence.text).toMatch(/^(stated|chart|inferred)$/);
    expect(sentences.some((sentence) => sentence.support === 'chart')).toBe(true);
    expect(outcome.note.verification).toEqual({ sentences: sentences.length, dropped: 0, flagged: 0 });
    expect(outcome.note.flags).toEqual([]);
    expect(outcome.note.warnings).toEqual([]);
    expect(outcome.note.facts?.length).toBeGreaterThan(3);
    expect(Array.isArray(outcome.note.omissions)).toBe(true);
  });

  it('flags an offline engine’s contradicting sentence and keeps it', async () => {
    const contradicting: NoteGenerator = {
      engine: { name: 'stub', version: '1' },
      generate: () =>
        Promise.resolve({
          sections: [
            {
              key: 'history_of_present_illness',
              label: 'HPI',
              sentences: [{ text: 'Reports fever.', evidence: { turns: [3], context: [] } }],
            },
          ],
        }),
    };
    const kept = await verified(singleEngine(contradicting))(input);
    expect(kept.note.sections[0]?.sentences[0]?.support).toBe('unsupported');
    expect(kept.note.flags?.map((flag) => flag.code)).toEqual(['polarity_mismatch']);
    expect(kept.note.verification).toEqual({ sentences: 1, dropped: 0, flagged: 1 });
    const dropped = await verified(singleEngine(contradicting), { dropContradictions: () => true })(input);
    expect(dropped.note.sections[0]?.sentences).toEqual([]);
    expect(dropped.note.verification).toEqual({ sentences: 1, dropped: 1, flagged: 0 });
    // Nothing is left that states the cough: the omission report says so.
    expect(dropped.note.omissions?.map((omission) => omission.text)).toContain('cough');
  });
});
