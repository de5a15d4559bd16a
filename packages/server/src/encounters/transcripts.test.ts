import type { RealtimeSessionResource, TranscriptSegment } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import { withDisplay } from '../realtime/segment-view.js';
import type { ConversationTurn } from '../text/conversation.js';
import { parseConversation } from '../text/parse-conversation.js';
import { transcriptRecording } from './transcripts.js';

type Said = [TranscriptSegment['speaker'], string, TranscriptSegment['words']?];

function session(id: string, said: readonly Said[]): RealtimeSessionResource {
  const segments = said.map(([speaker, text, words], index): TranscriptSegment =>
    withDisplay({
      id: `seg_${String(index + 1).padStart(6, '0')}`,
      text,
      startMs: index * 1000,
      endMs: index * 1000 + 900,
      channel: 0,
      speaker,
      ...(words === undefined ? {} : { words }),
    }),
  );
  return { id, segments } as unknown as RealtimeSessionResource;
}

const word = (text: string, confidence?: number) => ({
  word: text,
  startMs: 0,
  endMs: 1,
  ...(confidence === undefined ? {} : { confidence }),
});

/**
 * What evidence indexes and the chart shows: each turn's place, speaker and text. (Sentences may
 * split finer than the text's parse: each segment ends one, where the speaker paused.)
 */
const turnsOf = (turns: readonly ConversationTurn[]) =>
  turns.map(({ index, speaker, speakerLabel, text }) => ({ index, speaker, speakerLabel, text }));

describe('the recorded conversation a widget note is written from', () => {
  const labelled = [
    session('rts_1', [
      ['clinician', 'Any chest pain?', [word('any', 0.9), word('chest', 0.8), word('pain', 0.9)]],
      ['patient', 'No.', [word('no', 0.38)]],
      ['patient', '  Not   at all. ', [word('not'), word('at', 0.9), word('all', 0.9)]],
      ['unknown', 'Mm.'],
    ]),
    session('rts_2', [
      ['unknown', 'Sorry, where were we?'],
      ['clinician', 'Your lungs sound clear. Come back in a week.'],
    ]),
  ];
  const unlabelled = [
    session('rts_1', [
      ['unknown', 'any chest pain'],
      ['unknown', 'no', [word('no', 0.4)]],
    ]),
    session('rts_2', [['unknown', 'lungs sound clear']]),
  ];

  it.each([
    ['labelled', labelled],
    ['unlabelled', unlabelled],
  ])('has the turns the transcript text parses into (%s), so evidence indexes the text’s turns', (_name, sessions) => {
    const { text, conversation } = transcriptRecording(sessions);
    expect(turnsOf(conversation.turns)).toEqual(turnsOf(parseConversation(text).turns));
  });

  it('writes labelled turns as speaker lines and unlabelled sessions as prose, a blank line between sessions', () => {
    expect(transcriptRecording(labelled).text).toBe(
      [
        'Clinician: Any chest pain?\nPatient: No. Not at all.\nUnknown: Mm.',
        'Unknown: Sorry, where were we?\nClinician: Your lungs sound clear. Come back in a week.',
      ].join('\n\n'),
    );
    expect(transcriptRecording(unlabelled).text).toBe('Any chest pain? No.\n\nLungs sound clear.');
  });

  it('keeps each turn’s recognizer words, in order, where the segments had them', () => {
    const turns = transcriptRecording(labelled).conversation.turns;
    expect(turns.map((turn) => turn.words)).toEqual([
      [
        { word: 'any', confidence: 0.9 },
        { word: 'chest', confidence: 0.8 },
        { word: 'pain', confidence: 0.9 },
      ],
      [
        { word: 'no', confidence: 0.38 },
        { word: 'not' },
        { word: 'at', confidence: 0.9 },
        { word: 'all', confidence: 0.9 },
      ],
      undefined,
      undefined,
      undefined,
    ]);
    expect(transcriptRecording(unlabelled).conversation.turns.map((turn) => turn.words)).toEqual([
      [{ word: 'no', confidence: 0.4 }],
      undefined,
    ]);
  });
});
