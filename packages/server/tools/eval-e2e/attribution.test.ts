import type { TranscriptSegment } from '@chartwright/protocol';
import { withDisplay } from '@chartwright/server/internal/realtime/segment-view.js';
import { describe, expect, it } from 'vitest';

import type { SpokenTurn } from '../eval-asr/dialogue-audio.js';
import { scoreAttribution } from './attribution.js';
import { layoutAudio, parseArguments, trueTurns } from './run.js';

const TURNS: SpokenTurn[] = [
  { speaker: 'clinician', startMs: 0, endMs: 1000 },
  { speaker: 'patient', startMs: 1400, endMs: 3000 },
];

const segment = (
  speaker: TranscriptSegment['speaker'],
  speakerLabel: string,
  times: [number, number][],
): TranscriptSegment =>
  withDisplay({
    id: 'seg',
    text: times.map(() => 'word').join(' '),
    startMs: times[0]?.[0] ?? 0,
    endMs: times.at(-1)?.[1] ?? 0,
    channel: 0,
    speaker,
    speakerLabel,
    words: times.map(([startMs, endMs]) => ({ word: 'word', startMs, endMs })),
  });

describe('scoreAttribution', () => {
  it('gives each word the turn its time falls in, the nearer turn in a pause, and checks every voice’s role', () => {
    const right = scoreAttribution(
      [
        segment('clinician', 'S1', [
          [100, 400],
          [500, 900],
          [1050, 1150],
        ]),
        segment('patient', 'S2', [
          [1300, 1390],
          [1500, 2000],
        ]),
      ],
      TURNS,
    );
    expect(right).toEqual({ words: 5, correct: 5, rolesRight: true });
    const swapped = scoreAttribution(
      [
        segment('patient', 'S1', [[100, 400]]),
        segment('clinician', 'S2', [
          [1500, 2000],
          [2100, 2500],
        ]),
      ],
      TURNS,
    );
    expect(swapped).toEqual({ words: 3, correct: 0, rolesRight: false });
  });
});

describe('eval:e2e arguments and audio', () => {
  it('parses its options and refuses bad ones', () => {
    expect(
      parseArguments(['x.jsonl', '--layouts', 'mono', '--limit', '2', '--speed', '3'], 'default.jsonl'),
    ).toMatchObject({
      file: 'x.jsonl',
      layouts: ['mono'],
      limit: 2,
      speed: 3,
    });
    expect(parseArguments([], 'default.jsonl')).toMatchObject({ file: 'default.jsonl', layouts: ['mono', 'stereo'] });
    expect(() => parseArguments(['--layouts', 'surround'], 'd')).toThrow(/mono and\/or stereo/);
    expect(() => parseArguments(['--speed', '100'], 'd')).toThrow(/--speed/);
    expect(() => parseArguments(['--limit', '0'], 'd')).toThrow(/--limit/);
  });

  it('puts each voice on its own channel for stereo, the room faintly on both', () => {
    const samples = Int16Array.from({ length: 48 }, (_, i) => 1000 + i);
    const audio = {
      samples,
      seconds: 0.003,
      reference: [],
      turns: [
        { speaker: 'clinician' as const, startMs: 0, endMs: 1 },
        { speaker: 'patient' as const, startMs: 2, endMs: 3 },
      ],
    };
    expect(layoutAudio(audio, 'mono')).toEqual({ samples, channels: 1 });
    const { samples: stereo, channels } = layoutAudio(audio, 'stereo');
    expect(channels).toBe(2);
    // Sample 0 is the clinician's: left only. Sample 40 the patient's: right only. Sample 20 the pause: faint on both.
    expect([stereo[0], stereo[1]]).toEqual([1000, 0]);
    expect([stereo[80], stereo[81]]).toEqual([0, 1040]);
    expect([stereo[40], stereo[41]]).toEqual([1020 >> 6, 1020 >> 6]);
  });
});

describe('trueTurns', () => {
  it('gives the turns of a visit whose source swapped doctor and patient to the people who spoke them', () => {
    expect(trueTurns('D2N082', TURNS).map((turn) => turn.speaker)).toEqual(['patient', 'clinician']);
    expect(trueTurns('D2N083', TURNS).map((turn) => turn.speaker)).toEqual(['clinician', 'patient']);
  });
});
