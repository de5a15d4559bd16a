import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_OPTIONS } from '@chartwright/server/internal/asr/pocketsphinx/config.js';
import { PocketSphinxRecognizer } from '@chartwright/server/internal/asr/pocketsphinx/engine.js';
import { clinicalFiles, vocabularyFiles } from '@chartwright/server/internal/asr/vocabularies.js';
import { wordErrorRate } from '@chartwright/server/internal/text/wer.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { transcribe, type PacedStream } from '../eval-asr/transcribe.js';
import { speak } from '../speech/flite.js';
import { concatPcm, roomNoise } from '../speech/pcm.js';
import { PRONUNCIATION_OVERRIDES } from './pronunciation-overrides.js';
import { modelPhones, parseDictionary } from './pronunciations.js';
import { readSphinxTrie } from './sphinx-trie.js';

/**
 * Needs Debian's libpocketsphinx3 and pocketsphinx-en-us (the acoustic model, CMUdict) and flite.
 * Locally they may be absent and these tests are skipped; in CI absence fails.
 */
const missing = await missingSpeechTools();

const STOCK = DEFAULT_OPTIONS.modelDirectory;
const files = clinicalFiles();

/** Written for this test (not from any data set): clinical words the stock dictionary lacks. */
const SENTENCES = [
  'the patient takes digoxin and has a torn meniscus',
  'we will continue metformin for her diabetes',
  'start lisinopril ten milligrams daily for her blood pressure',
  'the echocardiogram showed mild mitral regurgitation',
  'there is tenderness to palpation over the medial joint line',
];
const CLINICAL_WORDS = [
  'digoxin',
  'meniscus',
  'metformin',
  'lisinopril',
  'echocardiogram',
  'regurgitation',
  'palpation',
];

describe.skipIf(missing.length > 0)('the clinical vocabulary', () => {
  it('pronounces every word of its model, with phones the acoustic model has', () => {
    const dictionary = parseDictionary(readFileSync(files.dict, 'utf8'));
    const additions = parseDictionary(readFileSync(files.additions, 'utf8'));
    const cmudict = parseDictionary(readFileSync(join(STOCK, 'cmudict-en-us.dict'), 'utf8'));
    const phones = modelPhones(readFileSync(join(STOCK, 'en-us', 'mdef')));
    expect(phones.size).toBe(42);
    for (const [word, pronunciations] of dictionary) {
      for (const pronunciation of pronunciations) {
        expect({ word, unknown: pronunciation.filter((phone) => !phones.has(phone)) }).toEqual({ word, unknown: [] });
      }
    }
    const modelWords = readSphinxTrie(readFileSync(files.lm)).words.filter((word) => word !== '<s>' && word !== '</s>');
    expect(modelWords.filter((word) => !dictionary.has(word))).toEqual([]);
    // The additions are exactly the words CMUdict lacks, pronounced as the dictionary says.
    expect([...additions.keys()].filter((word) => cmudict.has(word))).toEqual([]);
    expect(modelWords.filter((word) => !cmudict.has(word)).sort()).toEqual([...additions.keys()].sort());
    for (const [word, pronunciations] of additions) expect(dictionary.get(word)).toEqual(pronunciations);
  });

  it('uses the hand-checked pronunciations of common clinical words', () => {
    const dictionary = parseDictionary(readFileSync(files.dict, 'utf8'));
    for (const word of ['digoxin', 'lisinopril', 'meniscus']) {
      expect(dictionary.get(word)).toEqual(PRONUNCIATION_OVERRIDES[word]?.map((text) => text.split(' ')));
    }
    expect(dictionary.get('metformin')).toEqual([['M', 'EH', 'T', 'F', 'AO', 'R', 'M', 'IH', 'N']]);
    // Spoken-form numbers and letters the model writes come from CMUdict.
    expect(dictionary.get('milligrams')).toBeDefined();
    expect(dictionary.get('c')).toEqual([['S', 'IY']]);
  });

  describe('recognising speech', () => {
    let stock: PocketSphinxRecognizer;
    let clinical: PocketSphinxRecognizer;
    let audio: Int16Array;

    beforeAll(async () => {
      stock = new PocketSphinxRecognizer({ workers: 1, vocabulary: vocabularyFiles('stock') });
      clinical = new PocketSphinxRecognizer({ workers: 1, vocabulary: vocabularyFiles('clinical') });
      await Promise.all([stock.warmUp(), clinical.warmUp()]);
      audio = concatPcm([
        roomNoise(500),
        ...SENTENCES.flatMap((s, i) => [speak(s, 'slt'), roomNoise(1_200, 40, i + 2)]),
      ]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all([stock.close(), clinical.close()]);
    });

    it('starts decoders with the clinical files', async () => {
      expect(vocabularyFiles('clinical')).toEqual({
        lm: files.lm,
        dict: files.dict,
        args: ['-lw', '8', '-bestpathlw', '10', '-beam', '1e-60', '-topn', '3', '-maxhmmpf', '5000'],
      });
      await expect(clinical.status()).resolves.toEqual({ available: true });
      expect(clinical.workerPids()).toHaveLength(1);
    });

    it('recognises clinical words the stock vocabulary cannot', async () => {
      const [stockText, clinicalText] = await Promise.all(
        [stock, clinical].map(async (recognizer) =>
          transcribe((await recognizer.openStream({ sampleRate: 16000 })) as PacedStream, audio),
        ),
      );
      const reference = SENTENCES.join(' ');
      const stockWords = (stockText ?? '').split(' ');
      const clinicalWords = (clinicalText ?? '').split(' ');
      expect(CLINICAL_WORDS.filter((word) => stockWords.includes(word))).toEqual([]);
      expect(CLINICAL_WORDS.filter((word) => !clinicalWords.includes(word))).toEqual([]);
      const clinicalError = wordErrorRate(reference, clinicalText ?? '');
      // Every clinical word is the point here; on 41 words a decoder setting moves the rest by a word
      // or two either way ("her" or "your"), so accuracy itself is measured by eval:asr.
      expect(clinicalError).toBeLessThan(0.2);
      expect(clinicalError).toBeLessThan(wordErrorRate(reference, stockText ?? '') / 3);
      process.stderr.write(
        `[asr] clinical sentences: WER stock ${(wordErrorRate(reference, stockText ?? '') * 100).toFixed(1)}%, ` +
          `clinical ${(clinicalError * 100).toFixed(1)}%\n`,
      );
    }, 60_000);
  });
});
