import { CURATED_TEMPLATES } from '@chartwright/server/internal/notes/templates.js';
import { describe, expect, it } from 'vitest';

import {
  classifyHeading,
  generatedGroupTexts,
  groupOfTemplateSection,
  parseHeadingLine,
  referenceGroupTexts,
  splitNoteSections,
} from './sections.js';

// A synthetic note in the layout clinicians use (not taken from any data set).
const NOTE = [
  'CC:',
  '',
  'Left ankle pain.',
  '',
  'HISTORY OF PRESENT ILLNESS',
  '',
  'Ms. Doe is a 30-year-old who twisted her ankle.',
  '',
  'SOCIAL HISTORY',
  '',
  'Runs twice a week.',
  '',
  'CURRENT MEDICATIONS:',
  '',
  'Ibuprofen 200 mg as needed.',
  '',
  'REVIEW OF SYSTEMS',
  '',
  '• Musculoskeletal: Endorses ankle pain.',
  '',
  'VITALS',
  '',
  'BP: 120/80.',
  '',
  'PHYSICAL EXAM',
  '',
  'MSK: Swelling of the lateral malleolus.',
  '',
  'RESULTS',
  '',
  'X-ray shows no fracture.',
  '',
  'ASSESSMENT AND PLAN',
  '',
  'Left ankle sprain.',
  'COPD.',
  'HIV',
  '',
  'INSTRUCTIONS',
  '',
  'Return in 2 weeks.',
].join('\n');

describe('classifyHeading', () => {
  it('maps the headings clinicians use onto the canonical groups', () => {
    const cases: [string, string | null][] = [
      ['CHIEF COMPLAINT', 'history'],
      ['CC', 'history'],
      ['HPI', 'history'],
      ['HISTORY OF PRESENT ILLNESS', 'history'],
      ['PAST HISTORY', 'history'],
      ['MEDICAL HISTORY', 'history'],
      ['PAST MEDICAL HISTORY', 'history'],
      ['SOCIAL HISTORY', 'history'],
      ['FAMILY HISTORY', 'history'],
      ['MEDICATIONS', 'history'],
      ['ALLERGIES', 'history'],
      ['REVIEW OF SYSTEMS', 'ros'],
      ['ROS', 'ros'],
      ['PHYSICAL EXAMINATION', 'exam'],
      ['PHYSICAL EXAM', 'exam'],
      ['EXAM', 'exam'],
      ['VITALS', 'exam'],
      ['VITALS REVIEWED', 'exam'],
      ['RESULTS', 'results'],
      ['ASSESSMENT AND PLAN', 'assessment_plan'],
      ['ASSESSMENT', 'assessment_plan'],
      ['PLAN', 'assessment_plan'],
      ['IMPRESSION', 'assessment_plan'],
      ['INSTRUCTIONS', 'assessment_plan'],
      ['A/P', 'assessment_plan'],
      ['MUSCULOSKELETAL', null],
      ['HIV', null],
    ];
    for (const [heading, group] of cases) expect([heading, classifyHeading(heading)]).toEqual([heading, group]);
  });
});

describe('parseHeadingLine', () => {
  it('accepts upper-case heading lines, with or without a colon or text after it', () => {
    expect(parseHeadingLine('PHYSICAL EXAM')).toEqual({ heading: 'PHYSICAL EXAM', group: 'exam', rest: '' });
    expect(parseHeadingLine('  HPI:  ')).toEqual({ heading: 'HPI', group: 'history', rest: '' });
    expect(parseHeadingLine('CC: Right knee pain.')).toEqual({
      heading: 'CC',
      group: 'history',
      rest: 'Right knee pain.',
    });
    expect(parseHeadingLine('## Assessment and Plan')).toBeNull();
    expect(parseHeadingLine('## ASSESSMENT AND PLAN')).toEqual({
      heading: 'ASSESSMENT AND PLAN',
      group: 'assessment_plan',
      rest: '',
    });
  });

  it('rejects content: mixed case, unknown upper-case words, vitals lines, long upper-case sentences', () => {
    for (const line of [
      'Plan: ice and rest.',
      'COPD.',
      'HIV',
      'BP: 120/80.',
      'MSK: Swelling.',
      'PLAN TO FOLLOW UP WITH THE PATIENT AFTER THE MRI',
      '1. CHF.',
      '',
    ]) {
      expect([line, parseHeadingLine(line)]).toEqual([line, null]);
    }
  });
});

describe('splitNoteSections and referenceGroupTexts', () => {
  it('splits a note at its headings and groups the sections', () => {
    expect(splitNoteSections(NOTE).map((section) => [section.heading, section.group])).toEqual([
      ['CC', 'history'],
      ['HISTORY OF PRESENT ILLNESS', 'history'],
      ['SOCIAL HISTORY', 'history'],
      ['CURRENT MEDICATIONS', 'history'],
      ['REVIEW OF SYSTEMS', 'ros'],
      ['VITALS', 'exam'],
      ['PHYSICAL EXAM', 'exam'],
      ['RESULTS', 'results'],
      ['ASSESSMENT AND PLAN', 'assessment_plan'],
      ['INSTRUCTIONS', 'assessment_plan'],
    ]);
    const groups = referenceGroupTexts(NOTE);
    expect([...groups.keys()]).toEqual(['history', 'ros', 'exam', 'results', 'assessment_plan']);
    expect(groups.get('history')).toBe(
      'Left ankle pain.\n\nMs. Doe is a 30-year-old who twisted her ankle.\n\nRuns twice a week.\n\nIbuprofen 200 mg as needed.',
    );
    expect(groups.get('exam')).toBe('BP: 120/80.\n\nMSK: Swelling of the lateral malleolus.');
    expect(groups.get('assessment_plan')).toBe('Left ankle sprain.\nCOPD.\nHIV\n\nReturn in 2 weeks.');
  });

  it('counts text before the first heading as history, takes inline headings, and handles CRLF', () => {
    const groups = referenceGroupTexts('Seen today for a rash.\r\nPLAN: Hydrocortisone cream.\r\n');
    expect(groups.get('history')).toBe('Seen today for a rash.');
    expect(groups.get('assessment_plan')).toBe('Hydrocortisone cream.');
  });

  it('gives a note without headings to history, and an empty note no groups', () => {
    expect([...referenceGroupTexts('Just some text.').entries()]).toEqual([['history', 'Just some text.']]);
    expect(referenceGroupTexts('\n\n').size).toBe(0);
    // A heading with nothing under it has no text for its group.
    expect(referenceGroupTexts('RESULTS\n\nPLAN\nRest.').has('results')).toBe(false);
  });
});

describe('template sections', () => {
  it('puts every curated template section in a group', () => {
    for (const template of CURATED_TEMPLATES) {
      for (const section of template.sections) {
        expect([template.id, section.key, groupOfTemplateSection(section)]).not.toContainEqual(null);
      }
    }
  });

  it('groups an ad-hoc section by its label', () => {
    expect(groupOfTemplateSection({ key: 'custom_1', label: 'Vital Signs' })).toBe('exam');
    expect(groupOfTemplateSection({ key: 'custom_2', label: 'Things to discuss' })).toBeNull();
  });

  it('joins generated sentences one a line per group, leaving out empty and ungrouped sections', () => {
    const sentence = (text: string) => ({ text, evidence: { turns: [0], context: [] } });
    const groups = generatedGroupTexts([
      { key: 'chief_complaint', label: 'Chief Complaint', sentences: [sentence('Ankle pain.')] },
      { key: 'history_of_present_illness', label: 'HPI', sentences: [sentence('Twisted it.'), sentence('Swollen.')] },
      { key: 'review_of_systems', label: 'Review of Systems', sentences: [] },
      { key: 'plan', label: 'Plan', sentences: [sentence('Rest.')] },
      { key: 'custom', label: 'Miscellany', sentences: [sentence('Nice weather.')] },
    ]);
    expect([...groups.entries()]).toEqual([
      ['history', 'Ankle pain.\n\nTwisted it.\nSwollen.'],
      ['assessment_plan', 'Rest.'],
    ]);
  });
});
