import { describe, expect, it } from 'vitest';

import { ageOn, summarizePatient } from './patient-summary.js';

const on = (date: string) => new Date(`${date}T12:00:00`);

describe('ageOn', () => {
  it('counts whole years, the birthday included', () => {
    expect(ageOn('1984-05-17', on('2026-05-16'))).toBe('41 years');
    expect(ageOn('1984-05-17', on('2026-05-17'))).toBe('42 years');
    expect(ageOn('2024-02-29', on('2026-03-01'))).toBe('2 years');
  });

  it('counts months under two years and weeks or days under two months', () => {
    expect(ageOn('2025-03-10', on('2026-03-09'))).toBe('11 months');
    expect(ageOn('2026-01-01', on('2026-02-10'))).toBe('5 weeks');
    expect(ageOn('2026-02-05', on('2026-02-10'))).toBe('5 days');
    expect(ageOn('2026-02-09', on('2026-02-10'))).toBe('1 day');
  });

  it('reads the date part of a date-time', () => {
    expect(ageOn('1990-01-02T00:00:00Z', on('2026-01-02'))).toBe('36 years');
  });

  it('is null for what is not a real past date', () => {
    for (const dob of ['', 'unknown', '05/17/1984', '1984-02-30', '1984-13-01', '2030-01-01']) {
      expect(ageOn(dob, on('2026-01-01'))).toBeNull();
    }
  });
});

describe('summarizePatient', () => {
  it('shows allergies with severity and reaction, and only the medications not discontinued', () => {
    const summary = summarizePatient(
      {
        patient: { id: 'MRN-1', name: 'Ana Example', firstName: 'Ana', lastName: 'Example', dob: '1984-05-17' },
        context: {
          allergies: [{ name: 'Penicillin', severity: 'severe', reaction: 'hives' }, { name: 'Latex' }],
          medications: [
            { name: 'Metformin', dosage: '500 mg', frequency: 'twice daily', status: 'active' },
            { name: 'Ibuprofen', status: 'discontinued' },
            { name: 'Vitamin D' },
          ],
        },
      },
      on('2026-06-01'),
    );
    expect(summary).toEqual({
      id: 'MRN-1',
      name: 'Ana Example',
      age: '42 years',
      dob: '1984-05-17',
      gender: null,
      allergies: ['Penicillin · severe · hives', 'Latex'],
      medications: ['Metformin 500 mg twice daily', 'Vitamin D'],
    });
  });

  it('needs nothing but the patient', () => {
    expect(
      summarizePatient({ patient: { id: 'p', name: 'P', firstName: 'P', lastName: '' } }, on('2026-01-01')),
    ).toMatchObject({ age: null, allergies: [], medications: [] });
  });
});
