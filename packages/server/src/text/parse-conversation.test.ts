import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Conversation } from './conversation.js';
import { parseConversation } from './parse-conversation.js';
import { splitSentences } from './sentences.js';
import { speakerRole } from './speaker-labels.js';

/** [speaker, label, sentences] per turn: the shape every case below is checked against. */
const shape = (conversation: Conversation) =>
  conversation.turns.map((turn) => [turn.speaker, turn.speakerLabel, turn.sentences.map((sentence) => sentence.text)]);

describe('parseConversation', () => {
  it('reads [doctor]/[patient] tags, ASR style with spaced punctuation', () => {
    const conversation = parseConversation(
      "[doctor] hi , how are you ?\n[patient] i'm doing okay . my knee hurts .\n[patient_guest] she fell on it .\n[nurse] vitals are done",
    );
    expect(shape(conversation)).toEqual([
      ['clinician', 'doctor', ['hi , how are you ?']],
      ['patient', 'patient', ["i'm doing okay .", 'my knee hurts .']],
      ['other', 'patient_guest', ['she fell on it .']],
      ['other', 'nurse', ['Vitals are done.']],
    ]);
    expect(conversation.turns.map((turn) => turn.index)).toEqual([0, 1, 2, 3]);
  });

  it('splits several tags on one line', () => {
    expect(shape(parseConversation('[doctor] any chest pain ? [patient] no . [doctor] good .'))).toEqual([
      ['clinician', 'doctor', ['any chest pain ?']],
      ['patient', 'patient', ['no .']],
      ['clinician', 'doctor', ['good .']],
    ]);
  });

  it('reads Doctor:/Patient:/Dr. Smith:/Pt:/Nurse: prefixes, any case, with mixed line endings', () => {
    const conversation = parseConversation(
      'DOCTOR: Hello.\r\npatient: Hi, doctor.\rDr. Smith: Take 2.5 mg b.i.d. Then come back.\nPt: OK.\nNurse: BP is 120/80.\nClinician: Fine.\nProvider: Good.',
    );
    expect(shape(conversation)).toEqual([
      ['clinician', 'DOCTOR', ['Hello.']],
      ['patient', 'patient', ['Hi, doctor.']],
      ['clinician', 'Dr. Smith', ['Take 2.5 mg b.i.d.', 'Then come back.']],
      ['patient', 'Pt', ['OK.']],
      ['other', 'Nurse', ['BP is 120/80.']],
      ['clinician', 'Clinician', ['Fine.']],
      ['clinician', 'Provider', ['Good.']],
    ]);
  });

  it('drops timestamps before or after the label', () => {
    const conversation = parseConversation(
      '[00:01:23] Doctor: How are you?\n00:01:30 Patient: Fine.\nDoctor (12:03): Good.\nPatient [00:02:00]: Thanks.\n(12:04) Clinician: See you.\nProvider: Bye. [00:03:00]\n[00:03:05] [patient] bye',
    );
    expect(shape(conversation)).toEqual([
      ['clinician', 'Doctor', ['How are you?']],
      ['patient', 'Patient', ['Fine.']],
      ['clinician', 'Doctor', ['Good.']],
      ['patient', 'Patient', ['Thanks.']],
      ['clinician', 'Clinician', ['See you.']],
      ['clinician', 'Provider', ['Bye.']],
      ['patient', 'patient', ['Bye.']],
    ]);
  });

  it('reads a speaker label alone on its line followed by the text', () => {
    const conversation = parseConversation(
      'Doctor\nHow are you today?\nAny fever?\n\nPatient:\nNo fever.\nJust a cough.',
    );
    expect(shape(conversation)).toEqual([
      ['clinician', 'Doctor', ['How are you today?', 'Any fever?']],
      ['patient', 'Patient', ['No fever.', 'Just a cough.']],
    ]);
  });

  it('treats unlabeled prose as one unknown speaker, a turn per paragraph', () => {
    const conversation = parseConversation(
      'The patient came in with a cough.\nIt started two weeks ago.\n\n\nShe denies fever. Plan: rest.',
    );
    expect(shape(conversation)).toEqual([
      ['unknown', null, ['The patient came in with a cough.', 'It started two weeks ago.']],
      ['unknown', null, ['She denies fever.', 'Plan: rest.']],
    ]);
  });

  it('accepts names used as prefixes, but not one-off headings', () => {
    const conversation = parseConversation('Sarah: hi\nTom: hello\nSarah: how are you\nNote: this stays text');
    expect(shape(conversation)).toEqual([
      ['unknown', 'Sarah', ['Hi.']],
      ['unknown', 'Tom', ['Hello.']],
      ['unknown', 'Sarah', ['How are you Note: this stays text?']],
    ]);
  });

  it('collapses extra whitespace and drops bracketed annotations', () => {
    const conversation = parseConversation(
      '  Doctor:\t  how   are\u00a0you ?  [inaudible]  \n\n\n   Patient:   fine   ',
    );
    expect(shape(conversation)).toEqual([
      ['clinician', 'Doctor', ['how are you ?']],
      ['patient', 'Patient', ['Fine.']],
    ]);
  });

  it('gives no turns for empty or blank input', () => {
    expect(parseConversation('').turns).toEqual([]);
    expect(parseConversation('  \r\n \n\t ').turns).toEqual([]);
    expect(parseConversation('Doctor:').turns).toEqual([]);
  });

  it('never throws, and every turn has text, sentences and consecutive indexes', () => {
    const pieces = fc.constantFrom(
      '[doctor]',
      '[patient]',
      '[',
      ']',
      'Doctor:',
      'Pt:',
      ':',
      '00:01:23',
      '(12:03)',
      '\n',
      '\r\n',
      '\r',
      ' ',
      '.',
      '?',
      'Dr.',
      'e.g.',
      '2.5',
      'pain',
      'no',
      '…',
    );
    const transcripts = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.array(fc.oneof(pieces, fc.string({ maxLength: 8 })), { maxLength: 60 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(transcripts, (text) => {
        const { turns } = parseConversation(text);
        turns.forEach((turn, index) => {
          expect(turn.index).toBe(index);
          expect(turn.text.trim()).not.toBe('');
          expect(turn.sentences.length).toBeGreaterThan(0);
          turn.sentences.forEach((sentence, position) => {
            expect(sentence.index).toBe(position);
            expect(sentence.text.trim()).not.toBe('');
          });
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('speakerRole', () => {
  it.each([
    ['doctor', 'clinician'],
    ['Dr. Lee', 'clinician'],
    ['physician', 'clinician'],
    ['NP', 'clinician'],
    ['PA', 'clinician'],
    ['Provider', 'clinician'],
    ['patient', 'patient'],
    ['PT', 'patient'],
    ['patient_guest', 'other'],
    ["patient's mother", 'other'],
    ['nurse', 'other'],
    ['MA', 'other'],
    ['family', 'other'],
    ['Speaker 1', 'unknown'],
    ['Sarah', 'unknown'],
  ] as const)('%s → %s', (label, role) => {
    expect(speakerRole(label)).toBe(role);
  });
});

describe('splitSentences', () => {
  it('ends the sentences of a turn typed without marks, flags them inferred, and leaves typed marks alone', () => {
    const dialogue =
      "[doctor] okay so let me take a look at your knee i'll do a quick physical exam\n[patient] okay . it hurts here";
    const [examines, answers] = parseConversation(dialogue).turns;
    expect(examines?.sentences).toEqual([
      { index: 0, text: 'Okay.', markInferred: true },
      { index: 1, text: 'So let me take a look at your knee.', markInferred: true },
      { index: 2, text: "I'll do a quick physical exam.", markInferred: true },
    ]);
    expect(examines?.text).toBe("Okay. So let me take a look at your knee. I'll do a quick physical exam.");
    expect(answers?.sentences).toEqual([
      { index: 0, text: 'okay .' },
      { index: 1, text: 'it hurts here' },
    ]);
    const asTyped = parseConversation(dialogue, { asTyped: true }).turns[0];
    expect(asTyped?.sentences).toEqual([
      { index: 0, text: "okay so let me take a look at your knee i'll do a quick physical exam" },
    ]);
  });

  it('splits lower-case ASR text on spaced punctuation', () => {
    expect(splitSentences("i'm doing okay . how are you ? good")).toEqual([
      "i'm doing okay .",
      'how are you ?',
      'good',
    ]);
  });

  it('keeps abbreviations, decimals and dose frequencies inside a sentence', () => {
    expect(
      splitSentences(
        'Dr. Smith prescribed 2.5 mg b.i.d. for pain, e.g. with food. She is fine. Really? Yes! Take it t.i.d. Then stop.',
      ),
    ).toEqual([
      'Dr. Smith prescribed 2.5 mg b.i.d. for pain, e.g. with food.',
      'She is fine.',
      'Really?',
      'Yes!',
      'Take it t.i.d.',
      'Then stop.',
    ]);
  });

  it('keeps an unpunctuated turn whole and gives nothing for blank text', () => {
    expect(splitSentences('yeah my knee has been hurting for four days now')).toEqual([
      'yeah my knee has been hurting for four days now',
    ]);
    expect(splitSentences('   ')).toEqual([]);
  });
});
