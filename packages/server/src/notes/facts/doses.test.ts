import { describe, expect, it } from 'vitest';

import { doseAfter, doseBefore, doseIn } from './doses.js';

describe('doses as said', () => {
  it('reads a dose with its unit after the drug, and after its form', () => {
    expect(doseAfter(' 10 milligrams once a day')).toEqual({ value: 10, unit: 'mg' });
    expect(doseAfter(' inhaler , 2 puffs')).toEqual({ value: 2, unit: 'puff' });
  });

  it('reads a bare number only where it can be nothing but the dose', () => {
    expect(doseAfter(' to 80')).toEqual({ value: 80, unit: '' });
    expect(doseAfter(' , 40 at night , same as now')).toEqual({ value: 40, unit: '' });
    expect(doseAfter(' , 2 years ago')).toBeUndefined();
    expect(doseAfter(' for 3 weeks')).toBeUndefined();
  });

  it('reads thousands written with a comma as one number', () => {
    expect(doseAfter(' to 1,000 mg twice a day')).toEqual({ value: 1000, unit: 'mg' });
    expect(doseIn('take 50,000 units once a week')).toEqual({ value: 50000, unit: 'units' });
    expect(doseBefore('she takes 1,500 mg of the')).toEqual({ value: 1500, unit: 'mg' });
    expect(doseAfter(' to 1,000 twice a day')).toEqual({ value: 1000, unit: '' });
  });

  it('halves the strength of split tablets', () => {
    expect(doseIn('i have been cutting the 25 milligram tablets in half')).toEqual({ value: 12.5, unit: 'mg' });
    expect(doseBefore('i take half of a 50 mg of the')).toEqual({ value: 25, unit: 'mg' });
  });
});
