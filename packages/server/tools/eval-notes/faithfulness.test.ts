import { describe, expect, it } from 'vitest';

import { checkSentence, digitNumbers, lightStem, spokenNumberValues, supportSource } from './faithfulness.js';

// A synthetic visit (not from any data set).
const DIALOGUE = [
  '[doctor] hi there , what brings you in today ?',
  "[patient] my left knee has been swelling for about three weeks . i'm taking ibuprofen , two hundred milligrams .",
  "[doctor] any fevers ? and your blood pressure today is one twenty over eighty , that's good .",
  '[patient] no fevers . i smoked for 10 years but quit in nineteen ninety six .',
  '[doctor] we will get an x-ray and i want you to take it twice a day with food , 2.5 miles of walking is fine .',
].join('\n');

const source = supportSource([DIALOGUE]);
const supported = (sentence: string): boolean => checkSentence(sentence, source).supported;

describe('checkSentence', () => {
  it('accepts sentences whose content words and numbers are all in the dialogue', () => {
    expect(supported('Left knee swelling for 3 weeks.')).toBe(true);
    expect(supported('The patient reports taking ibuprofen 200 mg.')).toBe(true);
    expect(supported('She denies fevers.')).toBe(true);
    expect(supported('Blood pressure 120/80.')).toBe(true);
    expect(supported('He smoked for 10 years and quit in 1996.')).toBe(true);
    expect(supported('Walking 2.5 miles is fine.')).toBe(true);
    expect(supported('X-ray ordered.')).toBe(false); // "ordered" was never said
    expect(supported('Get an X-ray.')).toBe(true);
  });

  it('fails a sentence with a number the dialogue does not have', () => {
    const check = checkSentence('Ibuprofen 400 mg for three weeks.', source);
    expect(check).toEqual({ supported: false, missingWords: [], missingNumbers: [400] });
    expect(supported('Blood pressure 130/80.')).toBe(false);
    expect(supported('Swelling for 2 weeks.')).toBe(false);
    expect(supported('Walking 2 miles is fine.')).toBe(false);
  });

  it('fails a sentence with a content word the dialogue does not have', () => {
    expect(checkSentence('Left knee swelling with erythema.', source)).toEqual({
      supported: false,
      missingWords: ['erythema'],
      missingNumbers: [],
    });
    expect(supported('The patient reports chest pain.')).toBe(false);
  });

  it('matches inflections and unit abbreviations, not just exact words', () => {
    expect(supported('Knee swells.')).toBe(true);
    expect(supported('Smoking history.')).toBe(false); // "history" was never said
    expect(supported('Former smoker.')).toBe(false); // nor "former"
    expect(supported('Takes ibuprofen 200 milligrams twice daily.')).toBe(false); // nor "daily"
    expect(supported('Takes ibuprofen twice a day.')).toBe(true);
  });

  it('passes a sentence with nothing to check', () => {
    expect(supported('None.')).toBe(false);
    expect(supported('No.')).toBe(true);
    expect(supported('')).toBe(true);
  });
});

describe('numbers', () => {
  it('reads digit strings as numbers', () => {
    expect(digitNumbers('BP 120/80, 2.5 mg, 1,000 units, 05 days, 3-4 times, 45%')).toEqual([
      120, 80, 2.5, 1000, 5, 3, 4, 45,
    ]);
  });

  it('reads numbers said in words the ways they are said in visits', () => {
    const values = (words: string) => [...spokenNumberValues(words.split(' '))].sort((a, b) => a - b);
    // The longest reading wins where the grammar is clear...
    expect(values('twenty five')).toEqual([25]);
    expect(values('two hundred')).toEqual([200]);
    expect(values('one hundred and ten')).toEqual([110]);
    expect(values('two thousand one hundred and five')).toEqual([2105]);
    expect(values('a hundred')).toEqual([100]);
    expect(values('three four')).toEqual([3, 4]);
    expect(values('ninety eight point six')).toEqual([98, 98.6]);
    // ...and colloquial hundreds and years keep the plain reading too ("one, twenty").
    expect(values('one twenty')).toEqual([1, 20, 120]);
    expect(values('one thirty two')).toEqual([1, 32, 132]);
    expect(values('one oh five')).toEqual([1, 5, 105]);
    expect(values('nineteen ninety six')).toEqual([19, 96, 1996]);
    expect(values('two thousand nineteen')).toEqual([2019]);
    expect(values('third')).toEqual([3]);
    expect(values('knee')).toEqual([]);
  });
});

describe('lightStem', () => {
  it('reduces common inflections to one form', () => {
    expect(lightStem('swelling')).toBe(lightStem('swell'));
    expect(lightStem('smoked')).toBe(lightStem('smoke'));
    expect(lightStem('fevers')).toBe(lightStem('fever'));
    expect(lightStem('allergies')).toBe(lightStem('allergy'));
    expect(lightStem('pass')).toBe('pass');
  });
});
