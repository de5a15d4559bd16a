import { cardinal, decimal, ordinal, year } from '@chartwright/server/internal/text/number-words.js';
import { describe, expect, it } from 'vitest';

import { scoredWords, spokenSentences, spokenWords } from './spoken-form.js';

const spoken = (text: string): string => spokenWords(text).join(' ');

describe('number words', () => {
  it.each([
    [0, 'zero'],
    [7, 'seven'],
    [15, 'fifteen'],
    [40, 'forty'],
    [58, 'fifty eight'],
    [100, 'one hundred'],
    [120, 'one hundred twenty'],
    [1500, 'one thousand five hundred'],
    [50_000, 'fifty thousand'],
    [2_000_305, 'two million three hundred five'],
  ])('%i is "%s"', (n, words) => {
    expect(cardinal(n).join(' ')).toBe(words);
  });

  it('says ordinals, years and decimals as people do', () => {
    expect(ordinal(1).join(' ')).toBe('first');
    expect(ordinal(22).join(' ')).toBe('twenty second');
    expect(ordinal(30).join(' ')).toBe('thirtieth');
    expect(year(1982).join(' ')).toBe('nineteen eighty two');
    expect(year(1905).join(' ')).toBe('nineteen oh five');
    expect(year(2009).join(' ')).toBe('two thousand nine');
    expect(year(2021).join(' ')).toBe('twenty twenty one');
    expect(decimal('0.7').join(' ')).toBe('zero point seven');
    expect(decimal('.5').join(' ')).toBe('point five');
  });

  it('refuses what is not a whole number', () => {
    expect(() => cardinal(-1)).toThrow(RangeError);
    expect(() => cardinal(1.5)).toThrow(RangeError);
  });
});

describe('spoken form', () => {
  it.each([
    ['She is a 58-year-old woman.', 'she is a fifty eight year old woman'],
    [
      'Lisinopril 10 mg daily, metformin 500mg twice a day.',
      'lisinopril ten milligrams daily metformin five hundred milligrams twice a day',
    ],
    ['Vitamin D 2000iu and 0.5 mL', 'vitamin d two thousand international units and zero point five milliliters'],
    ['Her A1c was 8.2%, down from 9%.', 'her a one c was eight point two percent down from nine percent'],
    [
      'Seen on 4/24/2021, born 1/12/71.',
      'seen on april twenty fourth twenty twenty one born january twelfth seventy one',
    ],
    ['Come back at 7:00, or 5:45 pm.', "come back at seven o'clock or five forty five p m"],
    ['BP 120/80, pulse 72.', 'bp one hundred twenty over eighty pulse seventy two'],
    ['In 2019 and 1982 and the 1990s.', 'in twenty nineteen and nineteen eighty two and the nineteen nineties'],
    ['Her 15th visit, 2+ edema, 8-12 weeks.', 'her fifteenth visit two plus edema eight to twelve weeks'],
    ['B12, covid-19 and C7-T1.', 'b twelve covid nineteen and c seven t one'],
    ['It cost $20 & took 1,500 steps.', 'it cost twenty dollars and took one thousand five hundred steps'],
    ['Record 123546.', 'record one two three five four six'],
    ['Dr. Smith saw Mr. Jones.', 'doctor smith saw mister jones'],
  ])('%s', (text, words) => {
    expect(spoken(text)).toBe(words);
  });

  it('rejoins the tokenisation transcripts leave behind', () => {
    expect(spoken("i do n't know , it 's gon na be fine , we ca n't wait")).toBe(
      "i don't know it's gonna be fine we can't wait",
    );
  });

  it('drops punctuation and keeps word-internal apostrophes', () => {
    expect(spoken("Well... the patient's knee -- it's 'fine'?")).toBe("well the patient's knee it's fine");
  });

  it('writes words with two spellings one way', () => {
    expect(spoken('Alright, OK.')).toBe('all right okay');
  });

  it('scores words without filled pauses', () => {
    expect(scoredWords('Um, so, uh, the pain is, mm-hmm, better.')).toEqual(['so', 'the', 'pain', 'is', 'better']);
    expect(spokenWords('um, so')).toEqual(['um', 'so']);
  });

  it('splits text into sentences of words', () => {
    expect(spokenSentences('CHIEF COMPLAINT\n\nKnee pain. She is 61 years old!')).toEqual([
      ['chief', 'complaint'],
      ['knee', 'pain'],
      ['she', 'is', 'sixty', 'one', 'years', 'old'],
    ]);
  });
});
