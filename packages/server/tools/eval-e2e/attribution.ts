/**
 * Speaker attribution scored against the synthesis: a recognised word belongs to the turn its time
 * falls in (a word timed in the pause between two turns, to the nearer one), and is right when its
 * segment names that turn's speaker. Roles are right on a visit when every voice is mostly called by the
 * role of the speaker whose turns it mostly spoke.
 */
import type { TranscriptSegment } from '@chartwright/protocol';

import type { SpokenTurn } from '../eval-asr/dialogue-audio.js';

export interface Attribution {
  words: number;
  correct: number;
  /** Every voice label took the role of the speaker whose turns it mostly spoke. */
  rolesRight: boolean;
}

function turnAt(turns: readonly SpokenTurn[], ms: number): SpokenTurn | undefined {
  let nearest: SpokenTurn | undefined;
  let distance = Infinity;
  for (const turn of turns) {
    const away = ms < turn.startMs ? turn.startMs - ms : ms > turn.endMs ? ms - turn.endMs : 0;
    if (away < distance) {
      nearest = turn;
      distance = away;
    }
  }
  return nearest;
}

export function scoreAttribution(segments: readonly TranscriptSegment[], turns: readonly SpokenTurn[]): Attribution {
  let words = 0;
  let correct = 0;
  // Per voice (label, or the role where there is none): how many of its words fell in each speaker's turns.
  const heard = new Map<string, { called: Map<string, number>; clinician: number; patient: number }>();
  for (const segment of segments) {
    const timed = segment.words ?? [{ startMs: segment.startMs, endMs: segment.endMs }];
    const voice = segment.speakerLabel ?? segment.speaker;
    for (const word of timed) {
      const turn = turnAt(turns, (word.startMs + word.endMs) / 2);
      if (turn === undefined) continue;
      words++;
      if (turn.speaker === segment.speaker) correct++;
      const entry = heard.get(voice) ?? { called: new Map<string, number>(), clinician: 0, patient: 0 };
      entry[turn.speaker]++;
      entry.called.set(segment.speaker, (entry.called.get(segment.speaker) ?? 0) + 1);
      heard.set(voice, entry);
    }
  }
  const rolesRight = [...heard.values()].every(({ called, clinician, patient }) => {
    const [mostlyCalled] = [...called].sort((a, b) => b[1] - a[1])[0] ?? [];
    return mostlyCalled === (clinician >= patient ? 'clinician' : 'patient');
  });
  return { words, correct, rolesRight };
}
