import { fliteInstalled, synthesizeSpeech, TWO_VOICE_TURNS } from '@chartwright/testing/speech.js';
import { concatPcm, roomNoise } from '@chartwright/testing/synthetic-audio.js';
import { describe, expect, it } from 'vitest';

import { Diarizer } from './diarizer.js';
import { SpeakerFeatures } from './speaker-features.js';

const CI = process.env['CI'] !== undefined && process.env['CI'] !== '';
if (CI && !fliteInstalled()) throw new Error('flite is required in CI: apt-get install -y flite');

/** A visit's turns: the clinician asks, the patient answers, in two flite voices. */
const TURNS = [
  ...TWO_VOICE_TURNS,
  ['rms', 'are you taking anything for it'],
  ['slt', 'just some honey and tea'],
  ['rms', 'how is your breathing when you walk'],
  ['slt', 'it is fine on flat ground'],
] as const;

const ms = (samples: number): number => (samples * 1000) / 16_000;

describe.skipIf(!fliteInstalled())('Diarizer on one microphone', () => {
  it('labels each voice consistently and makes the one who asks the clinician', () => {
    const diarizer = new Diarizer();
    const attributions = [];
    let position = 0;
    for (const [voice, text] of TURNS) {
      const speech = concatPcm([synthesizeSpeech(text, voice), roomNoise(500)]);
      diarizer.write(speech);
      const startMs = ms(position);
      position += speech.length;
      attributions.push(diarizer.attribute({ text, startMs, endMs: ms(position) - 500 }));
    }
    expect(attributions.map((a) => a?.speakerLabel)).toEqual(['S1', 'S2', 'S1', 'S2', 'S1', 'S2', 'S1', 'S2']);
    // Once both voices have spoken, the one asking questions is the clinician.
    expect(attributions.slice(1).map((a) => a?.speaker)).toEqual([
      'patient',
      'clinician',
      'patient',
      'clinician',
      'patient',
      'clinician',
      'patient',
    ]);
  });

  it('gives a final with no voiced audio the previous voice, and none before any voice', () => {
    const diarizer = new Diarizer();
    diarizer.write(roomNoise(1000));
    expect(diarizer.attribute({ text: 'hmm', startMs: 0, endMs: 900 })).toBeNull();
    const speech = synthesizeSpeech('tell me about the pain', 'rms');
    diarizer.write(speech);
    const first = diarizer.attribute({
      text: 'tell me about the pain',
      startMs: 1000,
      endMs: 1000 + ms(speech.length),
    });
    diarizer.write(roomNoise(1000, 40, 3));
    const quiet = diarizer.attribute({
      text: 'okay',
      startMs: 1000 + ms(speech.length),
      endMs: 1900 + ms(speech.length),
    });
    expect(first?.speakerLabel).toBe('S1');
    expect(quiet?.speakerLabel).toBe('S1');
  });
});

describe('SpeakerFeatures', () => {
  it('numbers frames from the stream start, keeps only the last seconds, and the same audio gives the same cepstra however it is chunked', () => {
    const tone = Int16Array.from({ length: 48_000 }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 500 * i) / 16_000)),
    );
    const whole = new SpeakerFeatures(2);
    whole.write(tone);
    const chunked = new SpeakerFeatures(2);
    for (let offset = 0; offset < tone.length; offset += 1234) chunked.write(tone.subarray(offset, offset + 1234));
    // 3 s written, 2 s kept: the first second is gone.
    expect(whole.between(0, 900)).toEqual([]);
    const kept = whole.between(2000, 2100);
    expect(kept).toHaveLength(10);
    expect(chunked.between(2000, 2100)).toEqual(kept);
    // A steady 500 Hz tone (five periods to a hop): loud, and the same spectrum in every frame.
    expect(kept[0]?.energyDb).toBeGreaterThan(-20);
    expect(Array.from(kept[9]?.cepstra ?? [])).toEqual(Array.from(kept[0]?.cepstra ?? []));
  });
});
