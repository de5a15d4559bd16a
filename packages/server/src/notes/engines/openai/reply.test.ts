import { describe, expect, it } from 'vitest';

import type { Fact, Template } from '@chartwright/protocol';

import type { Conversation } from '../../../text/conversation.js';
import { extractJsonObject, parseReply } from './reply.js';

const template: Template = {
  id: 'mini',
  name: 'Mini note',
  description: 'A test template.',
  version: 1,
  sections: [
    { key: 'history', label: 'History', description: 'What the patient reports.' },
    { key: 'plan', label: 'Plan', description: 'What will be done.' },
  ],
};

const conversation: Conversation = {
  turns: [
    { index: 0, speaker: 'clinician', speakerLabel: 'doctor', text: 'What brings you in?', sentences: [] },
    { index: 1, speaker: 'patient', speakerLabel: 'patient', text: 'A cough for two weeks.', sentences: [] },
    { index: 2, speaker: 'clinician', speakerLabel: 'doctor', text: 'Let us get a chest x-ray.', sentences: [] },
  ],
};

const noContext = new Set<string>();
const parse = (reply: unknown, paths: ReadonlySet<string> = noContext) =>
  parseReply(typeof reply === 'string' ? reply : JSON.stringify(reply), template, conversation, paths);

function expectOk(result: ReturnType<typeof parseReply>) {
  if (!result.ok) throw new Error(`expected a usable reply, got: ${result.problems.join('; ')}`);
  return result;
}

describe('extractJsonObject', () => {
  it('reads a bare object, a fenced one, one inside prose and one after a think block', () => {
    const object = { sections: { plan: [] } };
    const json = JSON.stringify(object);
    expect(extractJsonObject(json)).toEqual({ found: true, value: object });
    expect(extractJsonObject('```json\n' + json + '\n```')).toEqual({ found: true, value: object });
    expect(extractJsonObject('Here is the note:\n```\n' + json + '\n```\nHope it helps.')).toEqual({
      found: true,
      value: object,
    });
    expect(extractJsonObject(`Sure! ${json} Let me know.`)).toEqual({ found: true, value: object });
    expect(extractJsonObject(`<think>{"not": "this"} maybe</think>\n${json}`)).toEqual({ found: true, value: object });
  });

  it('finds nothing in prose, truncated JSON, arrays or scalars', () => {
    expect(extractJsonObject('I cannot help with that.')).toEqual({ found: false });
    expect(extractJsonObject('{"sections": {"plan": [')).toEqual({ found: false });
    expect(extractJsonObject('[1, 2]')).toEqual({ found: false });
    expect(extractJsonObject('42')).toEqual({ found: false });
    expect(extractJsonObject('')).toEqual({ found: false });
  });
});

describe('parseReply', () => {
  it('builds every template section in template order, a missing one empty', () => {
    const result = expectOk(parse({ sections: { plan: [{ text: 'Chest x-ray ordered.', turns: [2] }] } }));
    expect(result.note.sections).toEqual([
      { key: 'history', label: 'History', sentences: [] },
      {
        key: 'plan',
        label: 'Plan',
        sentences: [{ text: 'Chest x-ray ordered.', evidence: { turns: [2], context: [] } }],
      },
    ]);
    expect(result.stats).toEqual({
      sentences: 1,
      droppedSentences: 0,
      uncitedSentences: 0,
      droppedReferences: 0,
      ignoredEmptyKeys: 0,
    });
  });

  it('drops turn numbers outside the conversation, and keeps statements left without evidence, uncited', () => {
    const result = expectOk(
      parse({
        sections: {
          history: [
            { text: 'Cough for two weeks.', turns: [1, 99, -1, 1.5] },
            { text: 'Fever for three days.', turns: [42] },
            { text: 'Smokes a pack a day.' },
          ],
          plan: [{ text: 'Chest x-ray ordered.', turns: [2] }],
        },
      }),
    );
    expect(result.note.sections[0]?.sentences).toEqual([
      { text: 'Cough for two weeks.', evidence: { turns: [1], context: [] } },
      { text: 'Fever for three days.', evidence: { turns: [], context: [] } },
      { text: 'Smokes a pack a day.', evidence: { turns: [], context: [] } },
    ]);
    expect(result.stats.uncitedSentences).toBe(2);
    expect(result.stats.droppedSentences).toBe(0);
    expect(result.stats.droppedReferences).toBe(4);
  });

  it('accepts turn numbers written as strings or a single number, and sorts and de-duplicates them', () => {
    const result = expectOk(
      parse({
        sections: {
          history: [
            { text: 'Cough for two weeks.', turns: ['1', 0, 1] },
            { text: 'Presents with cough.', turns: 1 },
            { text: 'Cough reported.', turns: 'turns 0 and 1' },
          ],
        },
      }),
    );
    expect(result.note.sections[0]?.sentences.map((sentence) => sentence.evidence.turns)).toEqual([
      [0, 1],
      [1],
      [0, 1],
    ]);
  });

  it('keeps context evidence only for the ids that were offered', () => {
    const paths = new Set(['medical.allergies[0]']);
    const result = expectOk(
      parse(
        {
          sections: {
            history: [
              { text: 'Allergic to penicillin.', turns: [], context: ['medical.allergies[0]', 'medical.allergies[7]'] },
              { text: 'Takes metformin.', context: ['medical.medications[0]'] },
            ],
          },
        },
        paths,
      ),
    );
    expect(result.note.sections[0]?.sentences).toEqual([
      { text: 'Allergic to penicillin.', evidence: { turns: [], context: ['medical.allergies[0]'] } },
      { text: 'Takes metformin.', evidence: { turns: [], context: [] } },
    ]);
  });

  it('cleans statement text, drops empty ones and merges duplicates with their evidence', () => {
    const result = expectOk(
      parse({
        sections: {
          history: [
            { text: '  - Cough for\n two weeks. ', turns: [1] },
            { text: 'cough for two weeks.', turns: [0] },
            { text: '   ', turns: [1] },
          ],
        },
      }),
    );
    expect(result.note.sections[0]?.sentences).toEqual([
      { text: 'Cough for two weeks.', evidence: { turns: [0, 1], context: [] } },
    ]);
  });

  it('maps keys written as labels or in another case to the template key', () => {
    const result = expectOk(parse({ sections: { History: [{ text: 'Cough.', turns: [1] }], PLAN: [] } }));
    expect(result.note.sections[0]?.sentences).toHaveLength(1);
  });

  it('accepts sections at the top level when the sections wrapper is missing', () => {
    const result = expectOk(parse({ plan: [{ text: 'Chest x-ray ordered.', turns: [2] }] }));
    expect(result.note.sections[1]?.sentences).toHaveLength(1);
  });

  it('refuses statements under a key the template does not have, and ignores such a key when empty', () => {
    const refused = parse({
      sections: { history: [{ text: 'Cough.', turns: [1] }], diagnosis: [{ text: 'Pneumonia.', turns: [1] }] },
    });
    expect(refused).toEqual({ ok: false, problems: ['sections: "diagnosis" is not a section of this template'] });

    const ignored = expectOk(parse({ sections: { history: [{ text: 'Cough.', turns: [1] }], diagnosis: [] } }));
    expect(ignored.stats.ignoredEmptyKeys).toBe(1);
  });

  it('refuses what is not a note: no JSON, wrong types, statements as bare strings', () => {
    expect(parse('no JSON here')).toEqual({ ok: false, problems: ['the reply is not a JSON object'] });
    expect(parse({ note: 'Cough.' }).ok).toBe(false);
    expect(parse({ sections: [] }).ok).toBe(false);
    expect(parse({ sections: { history: 'Cough.' } }).ok).toBe(false);
    const bare = parse({ sections: { history: ['Cough for two weeks.'] } });
    expect(bare.ok).toBe(false);
    if (!bare.ok) expect(bare.problems[0]).toMatch(/^sections\.history\[0\]/);
    expect(parse({ sections: { history: [{ text: 7, turns: [1] }] } }).ok).toBe(false);
  });

  it('refuses a reply whose statements all lack valid evidence, but accepts an empty note', () => {
    const unevidenced = parse({ sections: { history: [{ text: 'Cough.', turns: [9] }], plan: [{ text: 'X-ray.' }] } });
    expect(unevidenced.ok).toBe(false);
    if (!unevidenced.ok) expect(unevidenced.problems[0]).toMatch(/no statement cites/);

    const empty = expectOk(parse({ sections: { history: [], plan: [] } }));
    expect(empty.note.sections.every((section) => section.sentences.length === 0)).toBe(true);
  });

  it('keeps a statement without evidence with none, for the verifier to flag as uncited', () => {
    const result = expectOk(
      parse({
        sections: {
          history: [
            { text: 'A.', turns: [0] },
            { text: 'B.', turns: [] },
            { text: 'C.', turns: null },
          ],
          plan: [
            { text: 'D.', turns: ['x'] },
            { text: 'E.', turns: [2, 3] },
          ],
        },
      }),
    );
    const sentences = result.note.sections.flatMap((section) => section.sentences);
    expect(sentences.map((sentence) => [sentence.text, sentence.evidence.turns])).toEqual([
      ['A.', [0]],
      ['B.', []],
      ['C.', []],
      ['D.', []],
      ['E.', [2]],
    ]);
    expect(result.stats.uncitedSentences).toBe(3);
  });

  it('takes the fact ids a statement cites from the fact sheet, with their evidence', () => {
    const facts: Fact[] = [
      {
        id: 'f1',
        kind: 'problem',
        text: 'cough',
        name: 'cough',
        polarity: 'present',
        subject: { type: 'patient' },
        speaker: 'patient',
        source: { turns: [1], context: [] },
        certainty: 'high',
        modifiers: [],
      },
    ];
    const result = parseReply(
      JSON.stringify({
        sections: {
          history: [
            { text: 'Cough for two weeks.', facts: ['f1', 'f9'] },
            { text: 'Cough.', facts: [1], turns: [1] },
          ],
        },
      }),
      template,
      conversation,
      noContext,
      facts,
    );
    if (!result.ok) throw new Error(result.problems.join('; '));
    expect(result.note.sections[0]?.sentences).toEqual([
      { text: 'Cough for two weeks.', evidence: { turns: [1], context: [] }, facts: ['f1'] },
      { text: 'Cough.', evidence: { turns: [1], context: [] }, facts: ['f1'] },
    ]);
    expect(result.stats.droppedReferences).toBe(1);
  });
});
