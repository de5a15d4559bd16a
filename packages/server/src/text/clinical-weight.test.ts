import { describe, expect, it } from 'vitest';

import { clinicalWeight, LOW_CONFIDENCE, reviewWeight } from './clinical-weight.js';

describe('clinicalWeight', () => {
  it('names the weight of words that change the chart when misheard', () => {
    expect(['no', 'now', 'not', 'denies'].map(clinicalWeight)).toEqual([
      'negation',
      'negation',
      'negation',
      'negation',
    ]);
    expect(['twenty', '500', 'point'].map(clinicalWeight)).toEqual(['number', 'number', 'number']);
    expect(['milligrams', 'twice', 'units'].map(clinicalWeight)).toEqual(['dose', 'dose', 'dose']);
    expect(['systolic', 'diastolic'].map(clinicalWeight)).toEqual(['measure', 'measure']);
    expect(['left', 'Right'].map(clinicalWeight)).toEqual(['side', 'side']);
    // From the drug lexicon (generic and brand) and from drug-name endings it does not list.
    expect(['metformin', 'Lipitor', 'olmesartan', 'methotrexate'].map(clinicalWeight)).toEqual([
      'drug',
      'drug',
      'drug',
      'drug',
    ]);
    expect(['the', 'knee', 'tired', 'control'].map(clinicalWeight)).toEqual([null, null, null, null]);
  });
});

describe('reviewWeight', () => {
  it('asks for review of a weighty word only when it was heard under the threshold', () => {
    expect(reviewWeight('now', LOW_CONFIDENCE - 0.01)).toBe('negation');
    expect(reviewWeight('now', LOW_CONFIDENCE)).toBeNull();
    expect(reviewWeight('knee', 0.1)).toBeNull();
    expect(reviewWeight('diastolic', undefined)).toBeNull();
  });
});
