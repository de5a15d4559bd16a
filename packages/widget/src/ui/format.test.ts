import { describe, expect, it } from 'vitest';

import { formatElapsed, meterLevel, rowsFor, sentencesOf, spokenElapsed } from './format.js';

describe('formatElapsed', () => {
  it('shows m:ss, and h:mm:ss from an hour on', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(65_400)).toBe('1:05');
    expect(formatElapsed(3_725_000)).toBe('1:02:05');
    expect(formatElapsed(-5)).toBe('0:00');
  });
});

describe('spokenElapsed', () => {
  it('says each unit in words', () => {
    expect(spokenElapsed(0)).toBe('0 seconds');
    expect(spokenElapsed(61_000)).toBe('1 minute 1 second');
    expect(spokenElapsed(7_200_000)).toBe('2 hours');
  });
});

describe('meterLevel', () => {
  it('maps −60 dB to 0 dB onto the meter', () => {
    expect(meterLevel(0)).toBe(0);
    expect(meterLevel(Number.NaN)).toBe(0);
    expect(meterLevel(0.0001)).toBe(0);
    expect(meterLevel(0.001)).toBeCloseTo(0);
    expect(meterLevel(0.03)).toBeCloseTo(0.492, 3);
    expect(meterLevel(1)).toBe(1);
    expect(meterLevel(2)).toBe(1);
  });
});

describe('rowsFor', () => {
  it('fits the text, wrapped at about 60 characters, within bounds', () => {
    expect(rowsFor('', 3, 12)).toBe(3);
    expect(rowsFor('a\nb\nc\nd', 3, 12)).toBe(4);
    expect(rowsFor('x'.repeat(130), 1, 12)).toBe(3);
    expect(rowsFor('x\n'.repeat(40), 3, 12)).toBe(12);
  });
});

describe('sentencesOf', () => {
  it('numbers a section’s sentences as written, across lines and bullets', () => {
    expect(sentencesOf('Cough for 3 days. Denies fever!  Takes 10 mg daily?\n- Rest\n\n- Fluids')).toEqual([
      'Cough for 3 days.',
      'Denies fever!',
      'Takes 10 mg daily?',
      '- Rest',
      '- Fluids',
    ]);
    expect(sentencesOf('Referred to Dr. Lee for review. Symptoms, e.g. cough, persist.')).toEqual([
      'Referred to Dr. Lee for review.',
      'Symptoms, e.g. cough, persist.',
    ]);
    expect(sentencesOf('  ')).toEqual([]);
  });
});
