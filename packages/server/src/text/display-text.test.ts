import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { chartCasing, displayText, isQuestion } from './display-text.js';

const display = (text: string) => displayText(text).display;

describe('displayText', () => {
  it.each([
    ['i have had a cough for three days', 'I have had a cough for 3 days.'],
    ['i take metformin five hundred milligrams twice a day', 'I take metformin 500 mg twice a day.'],
    ['lisinopril ten milligrams once a day', 'Lisinopril 10 mg once a day.'],
    ['your blood pressure is one twenty over eighty', 'Your blood pressure is 120/80.'],
    ['her temperature was ninety eight point six', 'Her temperature was 98.6.'],
    ['oxygen is ninety seven percent', 'Oxygen is 97%.'],
    ['a three out of six murmur', 'A 3/6 murmur.'],
    ["i'm fine and i've been sleeping", "I'm fine. And I've been sleeping."],
    ['we will see you on monday', 'We will see you on Monday.'],
  ])('%s → %s', (text, expected) => {
    expect(display(text)).toBe(expected);
  });

  it.each([
    ['what brings you in today', 'What brings you in today?'],
    ['how long has this been going on', 'How long has this been going on?'],
    ['do you smoke', 'Do you smoke?'],
    ['are you taking anything for it', 'Are you taking anything for it?'],
    ['have you had any chest pain', 'Have you had any chest pain?'],
    ['is it worse at night', 'Is it worse at night?'],
    ['can you take a deep breath for me', 'Can you take a deep breath for me?'],
    ['any fever or chills', 'Any fever or chills?'],
    ['okay so does it hurt when i press here', 'Okay. So does it hurt when I press here?'],
    ["what's your pain like", "What's your pain like?"],
  ])('asks: %s', (text, expected) => {
    expect(display(text)).toBe(expected);
  });

  it.each([
    ['when i bend over it hurts', 'When I bend over it hurts.'],
    ['what i need you to do is rest', 'What I need you to do is rest.'],
    ['it hurts', 'It hurts.'],
    ['yes', 'Yes.'],
    ['no', 'No.'],
  ])('states: %s', (text, expected) => {
    expect(display(text)).toBe(expected);
  });

  it.each([
    ['your e g f r is fine', 'Your eGFR is fine.'],
    ['your egfr is fine', 'Your eGFR is fine.'],
    ['the h b a one c came back at seven point two', 'The HbA1c came back at 7.2.'],
    ['your a one c is six point nine percent', 'Your A1c is 6.9%.'],
    ['hemoglobin a1c', 'Hemoglobin A1c.'],
    ['she had covid nineteen last year', 'She had COVID-19 last year.'],
    ['covid test was negative', 'COVID test was negative.'],
    ['we will get an mri and a ct scan', 'We will get an MRI and a CT scan.'],
    ['an e k g and a chest x ray', 'An EKG and a chest X-ray.'],
    ['the ecg was normal and your bmi is thirty', 'The ECG was normal. And your BMI is 30.'],
    ['we checked your b twelve and vitamin d', 'We checked your B12 and vitamin D.'],
    ['plan b is fine', 'Plan b is fine.'],
    ['no more nsaids', 'No more NSAIDs.'],
    ['ten m g of lasix', '10 mg of lasix.'],
  ])('cases clinical terms: %s', (text, expected) => {
    expect(display(text)).toBe(expected);
  });

  it.each([
    [
      "okay so let me take a look at your knee i'll do a quick physical exam",
      "Okay. So let me take a look at your knee. I'll do a quick physical exam.",
    ],
    ["it's not the right knee it's the left knee", "It's not the right knee. It's the left knee."],
    [
      "i understand you've come in with some right knee pain can you tell me about it",
      "I understand you've come in with some right knee pain. Can you tell me about it?",
    ],
    [
      'so on abdominal exam there is no tenderness to palpation there is no evidence of rebound or guarding',
      'So on abdominal exam. There is no tenderness to palpation. There is no evidence of rebound or guarding.',
    ],
  ])('ends the sentences recognizer text runs together: %s', (text, expected) => {
    expect(display(text)).toBe(expected);
  });

  it('ends no sentence inside a restart, after "the" or "and", or after one word that seldom ends one', () => {
    expect(display('i i just feel tired all the time')).toBe('I I just feel tired all the time.');
    expect(display('no not really')).toBe('No not really.');
    expect(display('yeah a little')).toBe('Yeah a little.');
  });

  it('keeps the punctuation and case an engine already wrote', () => {
    expect(display('Hello, Dr. Smith. How are you?')).toBe('Hello, Dr. Smith. How are you?');
    expect(display('I take Tylenol,')).toBe('I take Tylenol.');
    expect(display('five, ten')).toBe('5, 10.');
  });

  it('leaves a lone "one" a word and an empty text empty', () => {
    expect(display('the one i take')).toBe('The one I take.');
    expect(displayText('')).toEqual({ display: '', tokens: [] });
    expect(displayText('   ')).toEqual({ display: '', tokens: [] });
  });

  it('says which words of the text each token came from', () => {
    expect(displayText('blood pressure one twenty over eighty and ten milligrams').tokens).toEqual([
      { text: 'Blood', wordStart: 0, wordEnd: 1 },
      { text: 'pressure', wordStart: 1, wordEnd: 2 },
      { text: '120/80', wordStart: 2, wordEnd: 6 },
      { text: 'and', wordStart: 6, wordEnd: 7 },
      { text: '10', wordStart: 7, wordEnd: 8 },
      { text: 'mg.', wordStart: 8, wordEnd: 9 },
    ]);
    expect(displayText('is your e g f r ok').tokens).toEqual([
      { text: 'Is', wordStart: 0, wordEnd: 1 },
      { text: 'your', wordStart: 1, wordEnd: 2 },
      { text: 'eGFR', wordStart: 2, wordEnd: 6 },
      { text: 'ok?', wordStart: 6, wordEnd: 7 },
    ]);
  });

  it('covers every word once, in order, and joins its tokens with spaces, whatever the text', () => {
    const word = fc.oneof(
      fc.constantFrom('one', 'twenty', 'over', 'eighty', 'point', 'six', 'a', 'i', 'e', 'g', 'f', 'r', 'mg', 'covid'),
      fc.constantFrom('milligrams', 'percent', 'do', 'you', 'x', 'ray', 'hundred', 'and', 'plus', 'out', 'of'),
      fc.stringMatching(/^[a-z',.?-]{1,6}$/),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), (words) => {
        const text = words.join(' ');
        const { display: shown, tokens } = displayText(text);
        expect(shown).toBe(tokens.map((token) => token.text).join(' '));
        const count = text.split(/\s+/).filter((part) => part !== '').length;
        let next = 0;
        for (const token of tokens) {
          expect(token.wordStart).toBe(next);
          expect(token.wordEnd).toBeGreaterThan(token.wordStart);
          next = token.wordEnd;
        }
        expect(next).toBe(count);
        expect(displayText(text)).toEqual({ display: shown, tokens });
      }),
    );
  });
});

describe('chartCasing', () => {
  it('writes clinical abbreviations, terms and brand names as a chart does, in running text', () => {
    expect(chartCasing('Get an mri and a cbc, and recheck the a1c and her ekgs.')).toBe(
      'Get an MRI and a CBC, and recheck the A1c and her EKGs.',
    );
    expect(chartCasing('Positive cva tenderness; x-ray of the knee; mcl strain; gi bleed.')).toBe(
      'Positive CVA tenderness; X-ray of the knee; MCL strain; GI bleed.',
    );
    expect(chartCasing('She takes tylenol, vitamin d and vitamin b12 on monday.')).toBe(
      'She takes Tylenol, vitamin D and vitamin B12 on Monday.',
    );
    expect(chartCasing('Vitamin d 2000 units daily.')).toBe('Vitamin D 2000 units daily.');
  });

  it('leaves words that only contain an abbreviation, and words already cased, as they are', () => {
    expect(chartCasing('The ent-like mention, a bpm reading, Ct scan, and the gerds.')).toBe(
      'The ent-like mention, a bpm reading, Ct scan, and the GERDs.',
    );
    expect(chartCasing("Her hdl's level is fine; covid-19 vaccine given.")).toBe(
      "Her hdl's level is fine; COVID-19 vaccine given.",
    );
  });
});

describe('isQuestion', () => {
  it('reads wh-questions, inverted auxiliaries and "any …"', () => {
    expect(isQuestion(['where', 'does', 'it', 'hurt'])).toBe(true);
    expect(isQuestion(['so', 'and', 'how', 'are', 'you'])).toBe(true);
    expect(isQuestion(["don't", 'you', 'think'])).toBe(true);
    expect(isQuestion(['anything', 'else'])).toBe(true);
    expect(isQuestion(['okay', 'anybody', 'in', 'the', 'family', 'with', 'kidney', 'failure'])).toBe(true);
    expect(isQuestion(['anyone', 'at', 'home', 'sick'])).toBe(true);
    expect(isQuestion(['anyone', 'can', 'get', 'it'])).toBe(false);
    // An acknowledgement run into the next question, with no end heard between them.
    expect(isQuestion(['interesting', 'do', 'you', 'remember', 'having', 'any', 'heartburn'])).toBe(true);
    expect(isQuestion(['all', 'right', 'is', 'it', 'worse', 'at', 'night'])).toBe(true);
    expect(isQuestion(['great', 'you', 'are', 'all', 'set'])).toBe(false);
    expect(isQuestion(['all', 'is', 'well'])).toBe(false);
    expect(isQuestion(['how'])).toBe(false);
    expect(isQuestion(['is', 'good'])).toBe(false);
    expect(isQuestion(['i', 'am', 'fine'])).toBe(false);
    // A wh-word before its subject opens a clause: "what we're gonna do is …", "when that's done".
    expect(isQuestion(['so', 'what', "we're", 'gonna', 'do', 'is', 'continue'])).toBe(false);
    expect(isQuestion(['and', 'when', "that's", 'complete'])).toBe(false);
    expect(isQuestion(['what', 'that', 'means'])).toBe(true);
    expect(isQuestion(["what's", 'that'])).toBe(true);
    expect(isQuestion([])).toBe(false);
  });
});
