import { describe, expect, it } from 'vitest';

import { clinicianEvidence, judgeRoles, SpeakerRoles } from './speaker-roles.js';

describe('clinicianEvidence', () => {
  it('counts questions and talk addressed to the other person for the clinician, talk about oneself against', () => {
    expect(clinicianEvidence('so how long have you had the pain')).toBeGreaterThan(0);
    expect(clinicianEvidence('do you take anything for it')).toBeGreaterThan(0);
    expect(clinicianEvidence('i have had it since my fall and it keeps me awake')).toBeLessThan(0);
    expect(clinicianEvidence('okay')).toBe(0);
  });
});

describe('SpeakerRoles', () => {
  it('makes the voice that asks the clinician and every other voice a patient', () => {
    const roles = new SpeakerRoles();
    roles.add('S1', 'what brings you in today');
    roles.add('S2', 'my knee has been hurting since i fell');
    roles.add('S1', 'does it swell');
    roles.add('S3', 'she has been limping all week');
    expect([roles.roleOf('S1'), roles.roleOf('S2'), roles.roleOf('S3')]).toEqual(['clinician', 'patient', 'patient']);
    expect(roles.roleOf('S4')).toBe('unknown');
  });

  it('judges one voice alone by its own words, and changes its mind when a better questioner speaks', () => {
    const roles = new SpeakerRoles();
    roles.add('S1', 'i think my blood pressure is up');
    expect(roles.roleOf('S1')).toBe('patient');
    roles.add('S2', 'have you been checking it at home');
    expect([roles.roleOf('S1'), roles.roleOf('S2')]).toEqual(['patient', 'clinician']);
    const silent = new SpeakerRoles();
    silent.add('S1', 'okay');
    expect(silent.roleOf('S1')).toBe('unknown');
  });
});

describe('judgeRoles', () => {
  it('judges every labelled segment with all that its voice said, and leaves unlabelled ones alone', () => {
    const judged = judgeRoles([
      { text: 'i have a question', speaker: 'clinician' as const, speakerLabel: 'S1' },
      { text: 'sure what is it', speaker: 'clinician' as const, speakerLabel: 'S2' },
      { text: 'my back hurts when i bend', speaker: 'patient' as const, speakerLabel: 'S1' },
      { text: 'how long has it hurt you', speaker: 'clinician' as const, speakerLabel: 'S2' },
      { text: 'two weeks', speaker: 'unknown' as const },
    ]);
    expect(judged.map((segment) => segment.speaker)).toEqual([
      'patient',
      'clinician',
      'patient',
      'clinician',
      'unknown',
    ]);
  });
});
