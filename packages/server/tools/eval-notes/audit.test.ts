import { describe, expect, it } from 'vitest';

import type { GeneratedNote, GeneratedSection } from '@chartwright/server/internal/notes/generator.js';

import { auditNote, summarizeAudits } from './audit.js';

const section = (key: string, label: string, ...texts: string[]): GeneratedSection => ({
  key,
  label,
  sentences: texts.map((text) => ({ text, evidence: { turns: [0], context: [] }, support: 'stated' as const })),
});

const NOTE: GeneratedNote = {
  sections: [
    section('chief_complaint', 'Chief Complaint', 'Cough.'),
    section(
      'history_of_present_illness',
      'History of Present Illness',
      'He has had a cough for 2 weeks.',
      'I think it started after the trip.',
      'He states "my chest feels tight".',
      'Okay, he denies fever.',
    ),
    section('assessment', 'Assessment', 'I suspect viral bronchitis.'),
    section('plan', 'Plan', 'We will order a chest x-ray.'),
  ],
  omissions: [{ fact: 'f3', kind: 'plan', text: 'follow up in 2 weeks' }],
};

describe('auditNote', () => {
  it('counts first- and second-person history sentences outside the assessment and plan, quotes excepted', () => {
    const audit = auditNote(NOTE);
    expect(audit.historySentences).toBe(5);
    expect(audit.personSentences).toBe(1);
  });

  it('counts spoken markers, the parts present, verifier classes, omissions and words', () => {
    const audit = auditNote(NOTE);
    expect(audit).toMatchObject({
      sentences: 7,
      spokenSentences: 1,
      chiefComplaint: true,
      assessmentAndPlan: true,
      support: { stated: 7 },
      omissions: 1,
    });
    expect(audit.words).toBe(36);
  });

  it('sees a note without a chief complaint or an assessment and plan', () => {
    const audit = auditNote({ sections: [section('hpi', 'History of Present Illness', 'He has a cough.')] });
    expect(audit).toMatchObject({ chiefComplaint: false, assessmentAndPlan: false, personSentences: 0 });
  });
});

describe('summarizeAudits', () => {
  it('pools the sentences over notes and takes medians of length', () => {
    const full = auditNote(NOTE);
    const bare = auditNote({ sections: [section('hpi', 'History of Present Illness', 'You have a cough.')] });
    const summary = summarizeAudits([full, bare], [30, 10, 20]);
    expect(summary.personShare).toBeCloseTo(2 / 6);
    expect(summary.chiefComplaintShare).toBe(0.5);
    expect(summary.assessmentAndPlanShare).toBe(0.5);
    expect(summary.medianWords).toBe((36 + 4) / 2);
    expect(summary.medianReferenceWords).toBe(20);
    expect(summary.omissionsPerNote).toBe(0.5);
  });
});
