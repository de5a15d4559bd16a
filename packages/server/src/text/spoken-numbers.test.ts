import { describe, expect, it } from 'vitest';

import { abbreviateUnits, digitize, numberSpans } from './spoken-numbers.js';

// Tokens as the callers give them: words and punctuation apart.
const spoken = (text: string) => digitize(text.split(' ')).join(' ');

describe('digitize', () => {
  it.each([
    ['for four days', 'for 4 days'],
    ['five hundred milligrams', '500 milligrams'],
    ['a thousand milligrams twice a day', '1000 milligrams twice a day'],
    ['her blood pressure is one thirty two over eighty', 'her blood pressure is 132/80'],
    ['a three out of six murmur', 'a 3/6 murmur'],
    ['one plus pitting edema', '1+ pitting edema'],
    ['ninety eight point six', '98.6'],
    ['about forty five percent', 'about 45%'],
    ['twenty five units', '25 units'],
    ['one day', '1 day'],
  ])('%s → %s', (input, output) => {
    expect(spoken(input)).toBe(output);
  });

  it('reads a year said in two halves after "in", "since" or a month, and nothing else so', () => {
    expect(spoken('a stent in twenty eighteen and a bypass since nineteen ninety nine')).toBe(
      'a stent in 2018 and a bypass since 1999',
    );
    expect(spoken('seen in march twenty twenty one')).toBe('seen in march 2021');
    expect(spoken('back in twenty five minutes')).toBe('back in 25 minutes');
    expect(spoken('in twenty thirty minutes')).toBe('in 20 30 minutes');
    expect(spoken('about twenty eighteen')).toBe('about 20 18');
  });

  it('leaves "one" as a pronoun and numbers already in digits alone', () => {
    expect(spoken('the one i take is 2.5 mg , and 1,000 mg of the other')).toBe(
      'the one i take is 2.5 mg , and 1,000 mg of the other',
    );
    expect(spoken('no one was there')).toBe('no one was there');
  });
});

describe('numberSpans', () => {
  it('says which words each token came from', () => {
    expect(numberSpans('her pressure is one twenty over eighty today'.split(' '))).toEqual([
      { text: 'her', from: 0, to: 1 },
      { text: 'pressure', from: 1, to: 2 },
      { text: 'is', from: 2, to: 3 },
      { text: '120/80', from: 3, to: 7 },
      { text: 'today', from: 7, to: 8 },
    ]);
    expect(numberSpans('ninety eight point six and a hundred percent'.split(' '))).toEqual([
      { text: '98.6', from: 0, to: 4 },
      { text: 'and', from: 4, to: 5 },
      { text: '100%', from: 5, to: 8 },
    ]);
    expect(numberSpans('a three out of six murmur and one plus edema'.split(' '))).toEqual([
      { text: 'a', from: 0, to: 1 },
      { text: '3/6', from: 1, to: 5 },
      { text: 'murmur', from: 5, to: 6 },
      { text: 'and', from: 6, to: 7 },
      { text: '1+', from: 7, to: 9 },
      { text: 'edema', from: 9, to: 10 },
    ]);
  });

  it('keeps the case of the words it leaves', () => {
    expect(numberSpans(['Metformin', 'Five', 'hundred']).map((span) => span.text)).toEqual(['Metformin', '500']);
  });
});

describe('abbreviateUnits', () => {
  it('abbreviates a unit only after a number', () => {
    expect(abbreviateUnits(['10', 'milligrams', 'of', 'milligrams'])).toEqual(['10', 'mg', 'of', 'milligrams']);
    expect(abbreviateUnits(['2.5', 'Milliliters'])).toEqual(['2.5', 'mL']);
  });
});
