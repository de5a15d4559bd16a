import { describe, expect, it } from 'vitest';

import { encounterForm, patientLetter, referralLetter } from './drafts.js';
import { documentMaterial, noteRole, type NoteHeading } from './material.js';

const NOW = Date.parse('2026-05-21T15:00:00Z');

const material = (note: readonly NoteHeading[], extra: Partial<Parameters<typeof documentMaterial>[0]> = {}) =>
  documentMaterial({ now: NOW, context: null, note, clinician: 'Dr. Ana Rivera', recipient: null, ...extra });

describe('note headings in documents', () => {
  it.each<[string, ReturnType<typeof noteRole>]>([
    ['Subjective', 'history'],
    ['History of Present Illness', 'history'],
    ['Chief complaint', 'history'],
    ['Objective', 'findings'],
    ['Physical Examination', 'findings'],
    ['Assessment', 'assessment'],
    ['Assessment and Plan', 'assessment'],
    ['Impression', 'assessment'],
    ['Plan', 'plan'],
    ['Follow-up', 'plan'],
    ['Social', null],
    ['Billing codes', null],
  ])('reads %s as %s', (label, role) => {
    expect(noteRole(label)).toBe(role);
  });

  it('puts each of a custom note’s headings where a referral reads it, and keeps the others', () => {
    const { content } = referralLetter(
      material([
        { label: 'Story', text: '' },
        { label: 'History of present illness', text: 'Knee pain for a month.' },
        { label: 'Exam', text: 'Effusion of the left knee.' },
        { label: 'Impression', text: 'Probable meniscal tear.' },
        { label: 'Social', text: 'Plays football weekly.' },
        { label: 'Next steps', text: 'MRI of the left knee.' },
      ]),
    );
    expect(content).toContain('REASON FOR REFERRAL\nProbable meniscal tear.');
    expect(content).toContain('HISTORY\nKnee pain for a month.');
    expect(content).toContain('EXAMINATION AND RESULTS\nEffusion of the left knee.');
    expect(content).toContain('SOCIAL\nPlays football weekly.');
    expect(content).toContain('ASSESSMENT\nProbable meniscal tear.');
    expect(content).toContain('PLAN\nMRI of the left knee.');
    expect(content).not.toMatch(/^STORY$/m);
    expect(content).toContain('From: Dr. Ana Rivera\n\nDear colleague,\n\nThank you for seeing this patient');
    expect(content).not.toContain('To:');
  });

  it('writes every document for an encounter with neither a patient nor a note', () => {
    const empty = material([]);
    expect(referralLetter(empty).content).toContain('HISTORY\nNot recorded.\n\nCURRENT MEDICATIONS\nNone recorded.');
    expect(patientLetter(empty).content).toContain('Dear patient,\n\nThank you for coming to see me on 2026-05-21.');
    const form = encounterForm(empty);
    expect(form.fields?.find((field) => field.key === 'visit_date')?.value).toBe('2026-05-21');
    expect(form.content).toMatch(/^Patient name:\nDate of birth:\n/);
    expect(form.content).toMatch(/Clinician: Dr\. Ana Rivera\nDate completed: 2026-05-21$/);
  });
});
