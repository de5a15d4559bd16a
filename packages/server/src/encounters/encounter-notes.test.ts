import { widgetNoteSchema, type ReviewFlag } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import type { EncounterNoteRecord } from '../store/encounter-notes.js';
import { noteView, type StoredNoteSection } from './encounter-notes.js';

const SECTIONS: StoredNoteSection[] = [
  { key: 'emr_s', templateKey: 'subjective', label: 'Subjective', text: 'Denies fever.' },
  { key: 'emr_p', templateKey: 'plan', label: 'Plan', text: '' },
];

const FLAG: ReviewFlag = {
  code: 'polarity_mismatch',
  message: 'The sentence and what was said disagree on whether it is present.',
  section: 'subjective',
  sentence: 0,
  facts: ['f2'],
  words: [],
};

const RECORD: EncounterNoteRecord = {
  id: 'note_1',
  encounter_id: 'enc_1',
  revision: 1,
  sections: JSON.stringify(SECTIONS),
  note_text: 'SUBJECTIVE\n\nDenies fever.',
  transcript: 'Patient: No fever.',
  source: 'transcript',
  created_at: 0,
  updated_at: 0,
  expires_at: 1,
  template_id: 'soap',
  template_version: 1,
  engine_name: 'openai',
  engine_version: 'model',
  fallback: null,
  style: 'concise',
  flags: JSON.stringify([FLAG, { ...FLAG, section: null, sentence: null }]),
  omissions: JSON.stringify([{ fact: 'f3', kind: 'plan', text: 'follow up in two weeks' }]),
  warnings: JSON.stringify([]),
  verification: JSON.stringify({ sentences: 3, dropped: 1, flagged: 1 }),
};

describe('a widget note', () => {
  it('answers the stored review fields, its flags under the host’s section keys', () => {
    const view = widgetNoteSchema.parse(noteView(RECORD));
    expect(view.style).toBe('concise');
    expect(view.flags).toEqual([
      { ...FLAG, section: 'emr_s' },
      { ...FLAG, section: null, sentence: null },
    ]);
    expect(view.omissions).toEqual([{ fact: 'f3', kind: 'plan', text: 'follow up in two weeks' }]);
    expect(view.warnings).toEqual([]);
    expect(view.verification).toEqual({ sentences: 3, dropped: 1, flagged: 1 });
  });

  it('answers empty lists and a null verification for a note stored without them', () => {
    const view = noteView({
      ...RECORD,
      style: 'detailed',
      flags: null,
      omissions: null,
      warnings: null,
      verification: null,
    });
    expect(view).toMatchObject({ style: 'detailed', flags: [], omissions: [], warnings: [], verification: null });
  });
});
