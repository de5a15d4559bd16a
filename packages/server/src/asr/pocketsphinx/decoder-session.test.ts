import { describe, expect, it } from 'vitest';

import type { Segment } from './native.js';
import { cutFrame, DecoderSession, type DecoderCalls } from './decoder-session.js';

/**
 * Segments from "word:start-end" specs, as the decoder's segment iterator reports them; "@0.2" after
 * the frames gives the word that posterior (read back by `Math.exp`), else it is certain.
 */
function segments(spec: string): Segment[] {
  return spec.split(' ').map((entry) => {
    const [word = '', timing = ''] = entry.split(':');
    const [frames = '', posterior = '1'] = timing.split('@');
    const [start = 0, end = 0] = frames.split('-').map(Number);
    return { word, startFrame: start, endFrame: end, logProbability: Math.log(Number(posterior)) };
  });
}

describe('cutFrame: where a long utterance is cut', () => {
  const speech = segments(
    '<s>:0-40 the:41-60 patient:61-110 <sil>:111-130 reports:131-190 chest:191-240 <sil>:241-243 pain:244-300',
  );

  it('cuts in the middle of the last pause in the window', () => {
    expect(cutFrame(speech, 100, 260)).toBe(121);
  });

  it('ignores pauses too short to be one, and cuts after the last word in the window instead', () => {
    expect(cutFrame(speech, 150, 260)).toBe(241);
    expect(cutFrame(speech, 150, 240)).toBe(191);
  });

  it('never cuts before the first word ends, so each cut makes progress', () => {
    expect(cutFrame(speech, 0, 55)).toBeNull();
    expect(cutFrame(speech, 0, 61)).toBe(61);
  });

  it('finds nothing when no word ends in the window or there are no words', () => {
    expect(cutFrame(speech, 245, 290)).toBeNull();
    expect(cutFrame(segments('<s>:0-40 <sil>:41-90 </s>:91-95'), 0, 95)).toBeNull();
  });
});

describe('DecoderSession finals', () => {
  /** The library's side (a third party's): an utterance that decodes to `spec`. */
  function decoderSaying(spec: string): DecoderCalls {
    return {
      startUtterance: () => undefined,
      endUtterance: () => undefined,
      process: () => undefined,
      inSpeech: () => false,
      hypothesis: () => '',
      segments: () => segments(spec),
      probability: () => 0.9,
      cepstralMean: () => null,
      setCepstralMean: () => undefined,
    };
  }

  it('carries no filled pause, noise or silence: um, uh and hmm are not words; mhm (yes) is', () => {
    const session = new DecoderSession(
      decoderSaying(
        '<s>:0-9 um:10-30 the(2):31-40 patient:41-80 [NOISE]:81-90 hmm:91-120 uh:121-130 reports:131-170 <sil>:171-180 mhm:181-200 </s>:201-210',
      ),
      { partialIntervalSamples: 4_000, maxUtteranceSamples: 288_000, decodeFirstWhole: false },
    );
    const [final] = session.end();
    expect(final).toMatchObject({ type: 'final', text: 'the patient reports mhm', startMs: 310, endMs: 2010 });
    expect(final?.type === 'final' ? (final.words ?? []).map((word) => word.word) : []).toEqual([
      'the',
      'patient',
      'reports',
      'mhm',
    ]);
  });

  it('takes a "but" the search is unsure of for the filled pause it usually is, and keeps a sure one', () => {
    const session = new DecoderSession(
      {
        ...decoderSaying(
          '<s>:0-9 but:10-30@0.2 i:31-40 take:41-70@0.95 it:71-80 but(2):81-90@0.49 but:91-100@0.9 not:101-120@0.3 </s>:121-130',
        ),
        probability: Math.exp,
      },
      { partialIntervalSamples: 4_000, maxUtteranceSamples: 288_000, decodeFirstWhole: false },
    );
    const [final] = session.end();
    expect(final).toMatchObject({ type: 'final', text: 'i take it but not', startMs: 310 });
    const confidence = (word: { confidence?: number }): number => Math.round((word.confidence ?? 0) * 100) / 100;
    expect(final?.type === 'final' ? (final.words ?? []).map(confidence) : []).toEqual([1, 0.95, 1, 0.9, 0.3]);
  });

  it('makes no final of an utterance that was only a filled pause', () => {
    const session = new DecoderSession(decoderSaying('<s>:0-9 um:10-40 </s>:41-50'), {
      partialIntervalSamples: 4_000,
      maxUtteranceSamples: 288_000,
      decodeFirstWhole: false,
    });
    expect(session.end()).toEqual([]);
  });
});

describe('DecoderSession: the end of an utterance the detector still hears as speech', () => {
  /** The library's side: the detector hears speech throughout; the best path grows write by write. */
  function breathingDecoder(paths: readonly string[]) {
    let writes = 0;
    let ended = 0;
    const fed: number[] = [];
    const decoder: DecoderCalls = {
      startUtterance: () => undefined,
      endUtterance: () => {
        ended++;
      },
      process: (pcm) => {
        writes++;
        fed.push(pcm.length);
      },
      inSpeech: () => true,
      hypothesis: () => '',
      segments: () => segments(paths[Math.min(writes, paths.length) - 1] ?? '<s>:0-9'),
      probability: () => 0.9,
      cepstralMean: () => null,
      setCepstralMean: () => undefined,
    };
    return { decoder, fed, endedUtterances: () => ended };
  }
  const options = { partialIntervalSamples: 4_000, maxUtteranceSamples: 288_000, decodeFirstWhole: false };
  /** "The patient reports pain", then breath: noise the search places after the last word. */
  const BREATH_AFTER_PAIN = [
    '<s>:0-9 the:10-20 patient:21-50',
    '<s>:0-9 the:10-20 patient:21-50 reports:51-90',
    '<s>:0-9 the:10-20 patient:21-50 reports:51-90 pain:91-110 [NOISE]:111-118',
    '<s>:0-9 the:10-20 patient:21-50 reports:51-90 pain:91-110 [NOISE]:111-130',
    '<s>:0-9 the:10-20 patient:21-50 reports:51-90 pain:91-110 [NOISE]:111-135 <sil>:136-140',
  ];
  // 30 frames a write, so the paths below never run ahead of the audio: a voice (a 200 Hz tone at
  // -16 dBFS), or breath 50 dB below it.
  const tone = (amplitude: number) =>
    Int16Array.from({ length: 4_800 }, (_, index) =>
      Math.round(amplitude * Math.sin((2 * Math.PI * 200 * index) / 16_000)),
    );
  const voice = tone(6_000);
  const breath = tone(19);
  /** The writes of "the patient reports pain" and the breath after it. */
  const SPOKEN = [voice, voice, voice, breath, breath, breath];

  it('ends it once the search has placed 0.3 s of noise after the last word (breath, room noise, hiss)', () => {
    const breathing = breathingDecoder(BREATH_AFTER_PAIN);
    const session = new DecoderSession(breathing.decoder, options);
    const events = SPOKEN.slice(0, 4).flatMap((chunk) => session.write(chunk));
    expect(events.filter((event) => event.type === 'final')).toEqual([]);
    expect(session.write(breath)).toMatchObject([{ type: 'final', text: 'the patient reports pain', endMs: 1110 }]);
    expect(breathing.endedUtterances()).toBe(1);
    // The audio from the middle of the last pause (the silence at 136–140: frame 138) to the end of
    // the fifth write (150) is decoded again as the next utterance's start: a word may begin in it.
    expect(breathing.fed).toEqual([4_800, 4_800, 4_800, 4_800, 4_800, 12 * 160]);
  });

  it("leaves a cold stream's first utterance to the detector: heard against a prior, speech can pass for silence", () => {
    const breathing = breathingDecoder(BREATH_AFTER_PAIN);
    const session = new DecoderSession(breathing.decoder, { ...options, decodeFirstWhole: true });
    expect(SPOKEN.flatMap((chunk) => session.write(chunk))).toEqual([]);
    expect(breathing.endedUtterances()).toBe(0);
  });

  it('does not end it while the voice goes on, though the path ends in 0.3 s of sentence end', () => {
    // "go forward", and then "ten", which the search has not matched to any word yet.
    const talking = breathingDecoder(['<s>:0-9 go:10-30 forward:31-60', '<s>:0-9 go:10-30 forward:31-60 </s>:61-95']);
    const session = new DecoderSession(talking.decoder, options);
    expect([voice, voice, voice, voice].flatMap((chunk) => session.write(chunk))).toEqual([]);
    expect(talking.endedUtterances()).toBe(0);
  });

  it('does not end it while a long word is still being spoken (the path ends at the word before it)', () => {
    // "the patient reports" … and then a long word whose end the search has not reached yet.
    const talking = breathingDecoder(['<s>:0-9 the:10-20 patient:21-50 reports:51-90']);
    const session = new DecoderSession(talking.decoder, options);
    const events = [...SPOKEN, breath, breath].flatMap((chunk) => session.write(chunk));
    expect(events.filter((event) => event.type === 'final')).toEqual([]);
    expect(talking.endedUtterances()).toBe(0);
  });

  it('does not end it on silence before the first word', () => {
    const waiting = breathingDecoder(['<s>:0-9 [NOISE]:10-80 <sil>:81-120']);
    const session = new DecoderSession(waiting.decoder, options);
    expect([...SPOKEN, breath, breath].flatMap((chunk) => session.write(chunk))).toEqual([]);
    expect(waiting.endedUtterances()).toBe(0);
  });
});

describe("DecoderSession: a cold stream's first utterance", () => {
  /**
   * The library's side: speech in the first and third writes; the streamed decode says `streamed`,
   * the decode again with the utterance's own mean says `whole` (and records the audio it was fed),
   * and the next utterance says `next`.
   */
  function coldDecoder(
    specs: { streamed: string; whole: string; next: string },
    inSpeech: (writes: number) => boolean = (writes) => writes === 1 || writes === 3,
  ) {
    const wholeDecodes: number[] = [];
    let writes = 0;
    let current = specs.streamed;
    let again = false;
    const decoder: DecoderCalls = {
      startUtterance: () => undefined,
      endUtterance: () => undefined,
      process: (pcm) => {
        if (again) {
          wholeDecodes.push(pcm.length);
          current = specs.whole;
          again = false;
        } else writes++;
      },
      inSpeech: () => inSpeech(writes),
      hypothesis: () => '',
      segments: () => segments(current),
      probability: () => 0.9,
      cepstralMean: () => [50, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      setCepstralMean: (_mean, carried) => {
        again = carried;
      },
    };
    return { decoder, wholeDecodes, next: () => (current = specs.next) };
  }

  it('is decoded again, whole, from all its audio, and its final carries that decode and the mean after it', () => {
    const cold = coldDecoder({
      streamed: '<s>:0-9 go:10-30 toward:31-60 </s>:61-70',
      whole: '<s>:0-9 go:10-30 forward:31-60 </s>:61-70',
      next: '<s>:400-409 ten:410-440 meters:441-480 </s>:481-490',
    });
    const session = new DecoderSession(cold.decoder, {
      partialIntervalSamples: 4_000,
      maxUtteranceSamples: 288_000,
      decodeFirstWhole: true,
    });
    const chunk = new Int16Array(1_600);
    expect(session.write(chunk)).toEqual([]);
    const [first] = session.write(chunk);
    expect(first).toMatchObject({ type: 'final', text: 'go forward', startMs: 100, endMs: 610 });
    expect(first?.type === 'final' ? first.cepstralMean : undefined).toEqual([
      50, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    expect(cold.wholeDecodes).toEqual([3_200]);
    // The next utterance is heard once: the mean has moved by then. Its frames run ahead of the
    // stream's by the 20 frames of audio the whole decode fed the decoder again.
    cold.next();
    session.write(chunk);
    const [second] = session.write(chunk);
    expect(second).toMatchObject({ type: 'final', text: 'ten meters', startMs: 3_900 });
    expect(cold.wholeDecodes).toEqual([3_200]);
  });

  it('keeps only a second of the silence before the first speech for that decode, however long it was', () => {
    const hello = '<s>:0-9 hello:10-30 </s>:31-40';
    // Five minutes of silence, then 0.1 s of speech.
    const cold = coldDecoder({ streamed: hello, whole: hello, next: '' }, (writes) => writes === 3_001);
    const session = new DecoderSession(cold.decoder, {
      partialIntervalSamples: 4_000,
      maxUtteranceSamples: 288_000,
      decodeFirstWhole: true,
    });
    const chunk = new Int16Array(1_600);
    const finals = [];
    for (let write = 0; write < 3_002; write++) finals.push(...session.write(chunk));
    expect(finals).toMatchObject([{ type: 'final', text: 'hello' }]);
    // A second of lead-in, the speech, and the write that ended it.
    expect(cold.wholeDecodes).toEqual([16_000 + 1_600 + 1_600]);
  });

  it('is not decoded again when the stream starts from a carried mean', () => {
    const cold = coldDecoder({
      streamed: '<s>:0-9 go:10-30 toward:31-60 </s>:61-70',
      whole: '<s>:0-9 go:10-30 forward:31-60 </s>:61-70',
      next: '',
    });
    const session = new DecoderSession(cold.decoder, {
      partialIntervalSamples: 4_000,
      maxUtteranceSamples: 288_000,
      decodeFirstWhole: false,
    });
    const chunk = new Int16Array(1_600);
    session.write(chunk);
    expect(session.write(chunk)).toMatchObject([{ type: 'final', text: 'go toward' }]);
    expect(cold.wholeDecodes).toEqual([]);
  });
});
