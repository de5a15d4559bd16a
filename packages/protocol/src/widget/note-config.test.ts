import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { formatDetail, validate } from '../validation.js';
import { WIDGET_LIMITS } from './limits.js';
import { noteSectionsSchema, widgetNoteConfigSchema } from './note-config.js';
import { validateEmrToWidgetMessage } from './validate-message.js';

const sections = (count: number) => Array.from({ length: count }, (_, i) => ({ key: `s${i}`, label: `Section ${i}` }));

/** `path: problem` entries for a section list, as the REST API would phrase them. */
function problems(input: unknown): string[] {
  const result = validate(noteSectionsSchema, input);
  return result.ok ? [] : result.details.map(formatDetail);
}

/** The same, inside a PATIENT_CONTEXT, as the widget phrases them. */
function messageProblems(noteConfig: unknown): string[] {
  const result = validateEmrToWidgetMessage({
    type: 'PATIENT_CONTEXT',
    patient: { id: 'pt-1', name: 'Alex Example' },
    noteConfig,
  });
  return result.ok ? [] : result.entries;
}

describe('noteSectionsSchema', () => {
  it('accepts the SOAP sections as given', () => {
    const soap = [
      { key: 'subjective', label: 'Subjective' },
      { key: 'objective', label: 'Objective' },
      { key: 'assessment', label: 'Assessment' },
      { key: 'plan', label: 'Plan' },
    ];
    expect(validate(noteSectionsSchema, soap)).toEqual({ ok: true, value: soap });
  });

  it('accepts 1 and 20 sections, refuses 0 and 21', () => {
    expect(problems(sections(1))).toEqual([]);
    expect(problems(sections(WIDGET_LIMITS.noteSectionsMax))).toEqual([]);
    expect(messageProblems({ sections: [] })).toEqual(['noteConfig.sections: must have at least 1 item']);
    expect(messageProblems({ sections: sections(21) })).toEqual(['noteConfig.sections: must have at most 20 items']);
  });

  it('accepts keys of 1 and 64 characters, refuses 0 and 65', () => {
    expect(problems([{ key: 'a', label: 'A' }])).toEqual([]);
    expect(problems([{ key: 'k'.repeat(64), label: 'A' }])).toEqual([]);
    expect(problems([{ key: '', label: 'A' }])).toEqual(['[0].key: must not be empty']);
    expect(problems([{ key: 'k'.repeat(65), label: 'A' }])).toEqual(['[0].key: must be at most 64 characters long']);
  });

  it('accepts keys of letters, digits and underscores that start with a letter', () => {
    for (const key of ['plan', 'Plan', 'hpi_2', 'A1_b2_C3', 'x_']) expect(problems([{ key, label: 'L' }])).toEqual([]);
  });

  it.each(['1st', '_plan', 'plan-b', 'plan b', ' plan', 'plan.', 'plän', 'plan\n'])(
    'refuses the key %j (spec: common validation failures)',
    (key) => {
      expect(
        messageProblems({
          sections: [
            { key: 'ok', label: 'Ok' },
            { key, label: 'L' },
          ],
        }),
      ).toEqual([
        'noteConfig.sections[1].key: must start with a letter and contain only letters, digits and underscore',
      ]);
    },
  );

  it('accepts labels of 1 and 128 characters, refuses empty, blank and 129', () => {
    expect(problems([{ key: 'a', label: 'x' }])).toEqual([]);
    expect(problems([{ key: 'a', label: 'x'.repeat(128) }])).toEqual([]);
    expect(problems([{ key: 'a', label: '' }])).toEqual(['[0].label: must not be empty']);
    expect(problems([{ key: 'a', label: ' \t ' }])).toEqual(['[0].label: must not be empty']);
    expect(problems([{ key: 'a', label: 'x'.repeat(129) }])).toEqual([
      '[0].label: must be at most 128 characters long',
    ]);
  });

  it('keeps labels trimmed', () => {
    expect(validate(noteSectionsSchema, [{ key: 'a', label: '  History  ' }])).toEqual({
      ok: true,
      value: [{ key: 'a', label: 'History' }],
    });
  });

  it('requires key and label as strings', () => {
    expect(messageProblems({ sections: [{}, { key: 5, label: null }, 'plan'] })).toEqual([
      'noteConfig.sections[0].key: is required',
      'noteConfig.sections[0].label: is required',
      'noteConfig.sections[1].key: must be a string, not a number',
      'noteConfig.sections[1].label: must be a string, not null',
      'noteConfig.sections[2]: must be an object, not a string',
    ]);
  });

  it('refuses duplicate keys, naming the section that had the key first', () => {
    const input = [
      { key: 'plan', label: 'Plan' },
      { key: 'notes', label: 'Notes' },
      { key: 'plan', label: 'Plan again' },
      { key: 'notes', label: 'Notes again' },
      { key: 'plan', label: 'Plan thrice' },
    ];
    expect(messageProblems({ sections: input })).toEqual([
      'noteConfig.sections[2].key: duplicates the key of the section at index 0',
      'noteConfig.sections[3].key: duplicates the key of the section at index 1',
      'noteConfig.sections[4].key: duplicates the key of the section at index 0',
    ]);
  });

  it('compares keys case-sensitively, as PUSH_NOTE.sections will', () => {
    expect(
      problems([
        { key: 'plan', label: 'a' },
        { key: 'Plan', label: 'b' },
      ]),
    ).toEqual([]);
  });

  it('reports duplicates alongside other broken sections', () => {
    expect(problems([{ key: 'a', label: 'A' }, { key: 'b' }, { key: 'a', label: 'A' }])).toEqual([
      '[1].label: is required',
      '[2].key: duplicates the key of the section at index 0',
    ]);
  });

  it('refuses a list that is not an array without running the duplicate check', () => {
    expect(problems('plan')).toEqual(['must be an array, not a string']);
    expect(problems({ 0: { key: 'a', label: 'A' } })).toEqual(['must be an array, not an object']);
  });

  it('converts to JSON Schema with the interface’s limits, for the REST API that reuses it', () => {
    const json = z.toJSONSchema(noteSectionsSchema, { io: 'input' });
    expect(json).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        properties: {
          key: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-zA-Z][a-zA-Z0-9_]*$' },
          label: { type: 'string', minLength: 1, maxLength: 128 },
        },
        required: ['key', 'label'],
      },
    });
  });
});

describe('widgetNoteConfigSchema', () => {
  it('requires sections', () => {
    expect(messageProblems({})).toEqual(['noteConfig.sections: is required']);
    expect(messageProblems([])).toEqual(['noteConfig: must be an object, not an array']);
    expect(validate(widgetNoteConfigSchema, { sections: sections(2) })).toEqual({
      ok: true,
      value: { sections: sections(2) },
    });
  });
});
