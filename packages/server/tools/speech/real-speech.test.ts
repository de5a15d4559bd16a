import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { encodeWav } from '@chartwright/server/internal/asr/wav.js';
import { wordEditDistance } from '@chartwright/server/internal/text/wer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  loadRealSpeech,
  parseRefs,
  parseTranscription,
  readRecording,
  RealSpeechError,
  TESTDATA_INSTALL,
} from './real-speech.js';
import { scoredWords } from './spoken-form.js';

// Sentences written for these tests, in the shapes of the real files.
const REFS =
  "talk_1\tgeneral\tThe red kettle sang, and the neighbor's dog barked.\r\ncount_1\tdigits\tfour two nine\n\n";
const TRANSCRIPTION = '<s> the owl sat on the fence </s> (reading-01)\n<s> seven of hearts  </s> (002)\n';

describe('refs.tsv', () => {
  it('reads id, subset and reference, puts general with read sentences, and finds the audio under wav/', () => {
    expect(parseRefs(REFS, '/rs')).toEqual([
      {
        id: 'talk_1',
        subset: 'read sentences',
        source: 'real-speech',
        file: '/rs/wav/talk_1.wav',
        reference: "The red kettle sang, and the neighbor's dog barked.",
      },
      {
        id: 'count_1',
        subset: 'digits',
        source: 'real-speech',
        file: '/rs/wav/count_1.wav',
        reference: 'four two nine',
      },
    ]);
  });

  it.each([
    ['only_an_id\n', 'refs.tsv line 1: expected id <TAB> subset <TAB> reference'],
    ['a\tgeneral\t \n', 'refs.tsv line 1: expected'],
    ['a\tgeneral\tone\n\nb\tshouting\ttwo\n', 'refs.tsv line 3: unknown subset "shouting"'],
  ])('refuses %j', (text, message) => {
    expect(() => parseRefs(text, '/rs')).toThrow(RealSpeechError);
    expect(() => parseRefs(text, '/rs')).toThrow(message);
  });
});

describe('a Sphinx transcription', () => {
  it('reads the words between <s> and </s> and the file id in parentheses', () => {
    expect(parseTranscription(TRANSCRIPTION, '/d', 'commands', 'cards')).toEqual([
      {
        id: 'reading-01',
        subset: 'commands',
        source: 'cards',
        file: '/d/reading-01.wav',
        reference: 'the owl sat on the fence',
      },
      { id: '002', subset: 'commands', source: 'cards', file: '/d/002.wav', reference: 'seven of hearts' },
    ]);
  });

  it('names the line it cannot read', () => {
    expect(() => parseTranscription('<s> fine </s> (a)\n<s> no id </s>\n', '/d', 'commands', 'cards')).toThrow(
      'cards transcription line 2',
    );
    expect(() => parseTranscription('<s> </s> (a)\n', '/d', 'commands', 'cards')).toThrow('line 1');
  });
});

describe('the pool', () => {
  let root: string;
  let testdata: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cw-real-speech-'));
    testdata = join(root, 'testdata');
    mkdirSync(join(testdata, 'librivox'), { recursive: true });
    mkdirSync(join(testdata, 'cards'), { recursive: true });
    writeFileSync(join(testdata, 'librivox', 'transcription'), '<s> the owl sat on the fence </s> (owl)\n');
    writeFileSync(join(testdata, 'cards', 'cards.transcription'), '<s> seven of hearts </s> (001)\n');
    mkdirSync(join(root, 'rs'));
    writeFileSync(join(root, 'rs', 'refs.tsv'), 'count_1\tdigits\tfour two\ntalk_1\tgeneral\tthe kettle sang\n');
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("pools Debian's LibriVox with the set's general recordings, cards as commands, the set's digits as digits", async () => {
    const pool = await loadRealSpeech(join(root, 'rs'), testdata);
    expect(pool.recordings.map((recording) => [recording.subset, recording.source, recording.id])).toEqual([
      ['read sentences', 'librivox', 'owl'],
      ['read sentences', 'real-speech', 'talk_1'],
      ['commands', 'cards', '001'],
      ['digits', 'real-speech', 'count_1'],
    ]);
    expect(pool.notes).toEqual([]);
  });

  it("runs on Debian's recordings alone when the set is missing, and says so", async () => {
    const pool = await loadRealSpeech(join(root, 'nowhere'), testdata);
    expect(pool.recordings.map((recording) => recording.source)).toEqual(['librivox', 'cards']);
    expect(pool.notes).toEqual([
      `no real-speech set at ${join(root, 'nowhere')}: Debian's pocketsphinx-testdata only, no digits`,
    ]);
  });

  it("cannot do without Debian's recordings, and says how to install them", async () => {
    await expect(loadRealSpeech(join(root, 'rs'), join(root, 'nowhere'))).rejects.toThrow(RealSpeechError);
    await expect(loadRealSpeech(join(root, 'rs'), join(root, 'nowhere'))).rejects.toThrow(TESTDATA_INSTALL);
  });

  it('reads mono recordings at 16 kHz, resampling other rates, and refuses stereo', async () => {
    writeFileSync(join(root, 'mono16.wav'), encodeWav(Int16Array.from([1, 2, 3, 4]), 16_000));
    writeFileSync(join(root, 'mono8.wav'), encodeWav(Int16Array.from([100, 100, 100, 100]), 8_000));
    const stereo = Buffer.from(encodeWav(Int16Array.from([1, 2, 3, 4]), 16_000));
    stereo.writeUInt16LE(2, 22);
    writeFileSync(join(root, 'stereo.wav'), stereo);

    expect(Array.from(await readRecording(join(root, 'mono16.wav')))).toEqual([1, 2, 3, 4]);
    expect(await readRecording(join(root, 'mono8.wav'))).toHaveLength(8);
    await expect(readRecording(join(root, 'stereo.wav'))).rejects.toThrow(
      '2 channels; only mono recordings are scored',
    );
  });
});

describe('a reference as scored', () => {
  it('is lower case without punctuation, keeping the apostrophe the recognizer writes', () => {
    const [recording] = parseRefs(REFS, '/rs');
    const reference = scoredWords(recording?.reference ?? '');
    expect(reference).toEqual(['the', 'red', 'kettle', 'sang', 'and', 'the', "neighbor's", 'dog', 'barked']);
    expect(wordEditDistance(reference, scoredWords("the red kettle sang and the neighbor's dog barked"))).toBe(0);
  });
});
