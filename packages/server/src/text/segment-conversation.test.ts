import { describe, expect, it } from 'vitest';

import { parseConversation } from './parse-conversation.js';
import { conversationFromSegments, segmentsLength, segmentsText } from './segment-conversation.js';

describe('conversationFromSegments', () => {
  it('makes one turn of adjacent segments of a known speaker, carrying their words in order', () => {
    const { turns } = conversationFromSegments([
      { speaker: 'clinician', text: 'Any chest pain?', words: [{ word: 'any', confidence: 0.9 }] },
      { speaker: 'patient', text: 'no', words: [{ word: 'no', confidence: 0.42, startMs: 10, endMs: 200 }] },
      { speaker: 'patient', text: '  not  really ', words: [{ word: 'not' }, { word: 'really', confidence: 1 }] },
      { speaker: 'other', text: 'He had some last week.' },
    ]);
    expect(turns).toEqual([
      {
        index: 0,
        speaker: 'clinician',
        speakerLabel: 'Clinician',
        text: 'Any chest pain?',
        sentences: [{ index: 0, text: 'Any chest pain?' }],
        words: [{ word: 'any', confidence: 0.9 }],
      },
      {
        index: 1,
        speaker: 'patient',
        speakerLabel: 'Patient',
        // Each segment ends where the speaker paused: its words end a sentence, with an inferred mark.
        text: 'No. Not really.',
        sentences: [
          { index: 0, text: 'No.', markInferred: true },
          { index: 1, text: 'Not really.', markInferred: true },
        ],
        words: [{ word: 'no', confidence: 0.42 }, { word: 'not' }, { word: 'really', confidence: 1 }],
      },
      {
        index: 2,
        speaker: 'other',
        speakerLabel: 'Other',
        text: 'He had some last week.',
        sentences: [{ index: 0, text: 'He had some last week.' }],
      },
    ]);
  });

  it('runs a segment cut where no sentence can end into the next, so a negation stays with its clause', () => {
    const { turns } = conversationFromSegments([
      { speaker: 'clinician', text: "your sugars look fine i don't think" },
      { speaker: 'clinician', text: 'we need to change the dose' },
      { speaker: 'clinician', text: 'see you in three months and' },
      { speaker: 'clinician', text: 'Call us if anything changes.' },
    ]);
    expect(turns.map((turn) => turn.sentences.map((sentence) => sentence.text))).toEqual([
      [
        'Your sugars look fine.',
        "I don't think we need to change the dose.",
        // A punctuated segment keeps its own ends: the cut one before it closes where it paused.
        'See you in 3 months and.',
        'Call us if anything changes.',
      ],
    ]);
  });

  it('keeps segments of an unknown speaker apart, skips empty ones, and splits sentences', () => {
    const { turns } = conversationFromSegments([
      { text: 'Good morning. How are you?' },
      { text: '   ' },
      { speaker: 'unknown', text: 'Fine, thanks.', words: [] },
    ]);
    expect(turns.map((turn) => [turn.index, turn.speaker, turn.speakerLabel, turn.text])).toEqual([
      [0, 'unknown', null, 'Good morning. How are you?'],
      [1, 'unknown', null, 'Fine, thanks.'],
    ]);
    expect(turns[0]?.sentences.map((sentence) => sentence.text)).toEqual(['Good morning.', 'How are you?']);
    // A turn heard without words has none; one whose segments sent an empty list has an empty list.
    expect(turns[0]).not.toHaveProperty('words');
    expect(turns[1]?.words).toEqual([]);
  });
});

describe('segmentsText', () => {
  it('labels the turns when a speaker is known, and is prose when none is', () => {
    expect(
      segmentsText([
        { speaker: 'clinician', text: 'Any fever?' },
        { speaker: 'patient', text: 'No.' },
        { speaker: 'patient', text: 'None.' },
        { text: 'Cough.' },
      ]),
    ).toBe('Clinician: Any fever?\nPatient: No. None.\nUnknown: Cough.');
    expect(segmentsText([{ text: 'Any fever?' }, { text: 'No.' }])).toBe('Any fever?\n\nNo.');
    const unlabelled = [{ text: 'Any fever?' }, { text: 'No.' }];
    expect(parseConversation(segmentsText(unlabelled)).turns).toEqual(conversationFromSegments(unlabelled).turns);
    expect(segmentsLength([{ text: 'ab' }, { text: 'cde' }])).toBe(5);
  });
});
