import { describe, expect, it } from 'vitest';

import { cleanSpeech } from './clean.js';
import { toNoteSentence, toThirdPerson } from './rewrite.js';

describe('speech → note sentence', () => {
  const note = (text: string, speaker: 'patient' | 'clinician', gender: 'female' | 'male' | null = 'female') =>
    toNoteSentence(toThirdPerson(cleanSpeech(text), speaker, gender));

  it('cleans filler, stutters and the conversational frame', () => {
    expect(note('okay , so , um , i , i have had pain for like two weeks , you know ?', 'patient')).toBe(
      'She has had pain for 2 weeks.',
    );
    expect(note("yeah , it's sh- it's been hurting my knee , right ?", 'patient')).toBe(
      'It has been hurting her knee.',
    );
    // A hesitation typed as long as it was held is one too.
    expect(note('hmmm , i have had ummm headaches uhhh most mornings', 'patient')).toBe(
      'She has had headaches most mornings.',
    );
  });

  it('drops the comma a filler leaves inside a phrase, and keeps a restarted verb once', () => {
    expect(note('i was , um , trying to reach the shelf', 'patient')).toBe('She was trying to reach the shelf.');
    expect(note('the pain is , uh , has been going away', 'patient')).toBe('The pain has been going away.');
    expect(note("i'm , been stretching with a , uh , exercise ball", 'patient')).toBe(
      'She has been stretching with an exercise ball.',
    );
    expect(note('there is no , uh , swelling and no , um , redness', 'clinician')).toBe(
      'There is no swelling and no redness.',
    );
    // Where a clause or a restarted phrase follows, the comma is a boundary and stays.
    expect(note("no , there's a little bit of , uh , fluid", 'clinician')).toBe('No, there is a little bit of fluid.');
    expect(note('it should be better in about , in a couple of days', 'clinician')).toBe(
      'It should be better in about, in a couple of days.',
    );
    expect(note('that is where the pain is , my knee feels fine', 'patient')).toBe(
      'That is where the pain is, her knee feels fine.',
    );
  });

  it('keeps what a speaker meant where they corrected themselves, and an apology is no correction', () => {
    expect(note("we'll recheck your a1c in a couple weeks , or , i'm sorry , a couple months", 'clinician')).toBe(
      'We will recheck her a1c in a couple months.',
    );
    expect(
      note("we'll treat it with penicillin or , i'm sorry , amoxicillin , five hundred milligrams", 'clinician'),
    ).toBe('We will treat it with amoxicillin, 500 mg.');
    expect(note('what we call a wide local incision , excuse me , excision', 'clinician')).toBe(
      'A wide local excision.',
    );
    expect(note("your knee is worse , i'm sorry to hear that", 'clinician')).toBe(
      'Her knee is worse, I am sorry to hear that.',
    );
    expect(note('the cough got worse , sorry , i lost my train of thought', 'patient')).toBe(
      'The cough got worse, sorry, she lost her train of thought.',
    );
  });

  it('goes on from where a speaker restarted, and keeps a list of like items whole', () => {
    expect(note('it should not take , it should not delay the surgery', 'clinician')).toBe(
      'It should not delay the surgery.',
    );
    expect(note('we will see if you need to give any , to give you any iron', 'clinician')).toBe(
      'We will see if she needs to give her any iron.',
    );
    expect(note('i took some tylenol , i took some ibuprofen , nothing helped', 'patient')).toBe(
      'She took some tylenol, she took some ibuprofen, nothing helped.',
    );
    expect(note('overall i am doing well , i am taking the right steps', 'patient')).toBe(
      'Overall she is doing well, she is taking the right steps.',
    );
  });

  it("rewrites the patient's first person and the clinician's second person", () => {
    expect(note('i take lisinopril twenty milligrams every morning', 'patient', 'male')).toBe(
      'He takes lisinopril 20 mg every morning.',
    );
    expect(note("i'm gon na start you on metformin and i want you to check your sugars", 'clinician')).toBe(
      'I am going to start her on metformin and I want her to check her sugars.',
    );
    expect(note('you are doing well and your knee looks better', 'clinician', null)).toBe(
      'The patient is doing well and their knee looks better.',
    );
  });

  it('leaves other speakers as said', () => {
    expect(toNoteSentence(toThirdPerson(cleanSpeech('i think she fell'), 'other', 'female'))).toBe('I think she fell.');
  });
});
