import { noteSchema, type Fact, type ReviewFlag } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import type { NoteRow } from '../store/notes.js';
import type { GeneratedNote } from './generator.js';
import { noteFromRow, reviewColumns } from './note-records.js';
import { WRITTEN_NOW } from './note-service.js';

const FACT: Fact = {
  id: 'f1',
  kind: 'problem',
  text: 'chest pain',
  name: 'chest pain',
  modifiers: [],
  polarity: 'absent',
  subject: { type: 'patient' },
  speaker: 'patient',
  source: { turns: [1], context: [] },
  certainty: 'low',
};

const FLAG: ReviewFlag = {
  code: 'low_confidence_word',
  message: 'A negation was heard with low confidence; check it.',
  section: 'subjective',
  sentence: 0,
  facts: ['f1'],
  words: [{ word: 'no', confidence: 0.41, turn: 1 }],
};

const GENERATED: GeneratedNote = {
  sections: [
    {
      key: 'subjective',
      label: 'Subjective',
      sentences: [
        { text: 'Denies chest pain.', evidence: { turns: [1], context: [] }, support: 'stated', facts: ['f1'] },
        { text: 'Allergic to penicillin.', evidence: { turns: [], context: ['medical.allergies[0]'] } },
      ],
    },
    { key: 'plan', label: 'Plan', sentences: [] },
  ],
  facts: [FACT],
  flags: [FLAG, { ...FLAG, code: 'uncited_sentence', section: null, sentence: null, words: [] }],
  omissions: [{ fact: 'f1', kind: 'problem', text: 'chest pain' }],
  warnings: [{ code: 'low_confidence_transcript', message: 'Most words were heard with low confidence.' }],
  verification: { sentences: 2, dropped: 1, flagged: 1 },
};

const ROW_BASE: Omit<NoteRow, 'sections' | 'flags' | 'omissions' | 'warnings' | 'verification' | 'facts'> = {
  id: 'note_1',
  project_id: 'proj_1',
  environment: 'test',
  template_id: 'soap',
  template_version: 1,
  engine_name: 'extractive',
  engine_version: '1',
  fallback: null,
  input_sha256: 'x',
  note_text: 'SUBJECTIVE\n\nDenies chest pain.',
  created_at: 0,
  expires_at: 1,
  style: 'concise',
  ...WRITTEN_NOW,
};

describe('stored notes', () => {
  it('keep what the engine said beside the text, under the caller’s section keys', () => {
    const hostKeys = new Map([
      ['subjective', 'S'],
      ['plan', 'P'],
    ]);
    const row: NoteRow = { ...ROW_BASE, ...reviewColumns(GENERATED, hostKeys) };
    const note = noteSchema.parse(noteFromRow(row, ['facts']));
    expect(note.style).toBe('concise');
    expect(note.sections.map((section) => section.key)).toEqual(['S', 'P']);
    expect(note.sections[0]?.sentences).toEqual([
      { text: 'Denies chest pain.', evidence: { turns: [1], context: [] }, support: 'stated', facts: ['f1'] },
      { text: 'Allergic to penicillin.', evidence: { turns: [], context: ['context.allergies[0]'] } },
    ]);
    expect(note.flags.map((flag) => flag.section)).toEqual(['S', null]);
    expect(note.flags[0]).toEqual({ ...FLAG, section: 'S' });
    expect(note.omissions).toEqual(GENERATED.omissions);
    expect(note.warnings).toEqual(GENERATED.warnings);
    expect(note.verification).toEqual(GENERATED.verification);
    expect(note.facts).toEqual([FACT]);
    expect(noteFromRow(row)).not.toHaveProperty('facts');
  });

  it('answer empty lists and a null verification for what an engine left out', () => {
    const row: NoteRow = { ...ROW_BASE, ...reviewColumns({ sections: GENERATED.sections }, undefined) };
    expect(row).toMatchObject({ flags: null, omissions: null, warnings: null, verification: null, facts: null });
    const note = noteSchema.parse(noteFromRow(row, ['facts']));
    expect(note).toMatchObject({ flags: [], omissions: [], warnings: [], verification: null, facts: [] });
    expect(note.sections.map((section) => section.key)).toEqual(['subjective', 'plan']);
  });
});
