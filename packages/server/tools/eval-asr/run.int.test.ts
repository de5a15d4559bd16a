import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';
import { resampleLinear } from '@chartwright/server/internal/asr/resample.js';
import { encodeWav } from '@chartwright/server/internal/asr/wav.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { speak } from '../speech/flite.js';
import type { EvalReport } from './report.js';
import { runAsrEval } from './run.js';

/** Needs flite and the recognizer's packages; skipped locally without them, failing in CI. */
const missing = await missingSpeechTools();

/** A short visit written for this test, in ACI-Bench's shape (the tool reads `id` and `dialogue`). */
const DIALOGUE = [
  '[doctor] good morning . how is your knee today ?',
  '[patient] it still hurts when i climb the stairs .',
  '[doctor] are you still taking the metformin , 500 mg twice a day ?',
  '[patient] yes , and um my sugar was 140 this morning .',
].join('\n');

describe.skipIf(missing.length > 0)('npm run eval:asr', () => {
  let directory: string;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'cw-eval-asr-'));
    writeFileSync(join(directory, 'visits.jsonl'), `${JSON.stringify({ id: 'V1', dialogue: DIALOGUE })}\n`);
    // A stand-in for the real-speech set: its layout, sentences written here, spoken by flite and
    // stored at 8 kHz as the set's originals were, so the evaluation has to resample.
    mkdirSync(join(directory, 'real-speech', 'wav'), { recursive: true });
    const say = (id: string, text: string) =>
      writeFileSync(
        join(directory, 'real-speech', 'wav', `${id}.wav`),
        encodeWav(resampleLinear(speak(text, 'rms'), RECOGNIZER_SAMPLE_RATE, 8000), 8000),
      );
    say('kettle', 'The kettle on the stove began to sing.');
    say('numbers', 'four. two. nine.');
    writeFileSync(
      join(directory, 'real-speech', 'refs.tsv'),
      'kettle\tgeneral\tThe kettle on the stove began to sing.\nnumbers\tdigits\tfour two nine\n',
    );
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('speaks a dialogue, decodes it with both vocabularies and reports WER and CPU', async () => {
    let stdout = '';
    const progress: string[] = [];
    const code = await runAsrEval(
      [join(directory, 'visits.jsonl'), '--sets', 'flite', '--dialogues', 'all', '--json'],
      { stdout: (text) => (stdout += text), stderr: (text) => progress.push(text) },
      {
        file: join(directory, 'missing.jsonl'),
        realSpeechDirectory: join(directory, 'real-speech'),
        machine: () => ['test machine'],
      },
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalReport;
    expect(report.real).toBeNull();
    expect(report.flite?.dialogues).toEqual(['V1']);
    expect(report.flite?.vocabularies.map((result) => result.name)).toEqual(['stock', 'clinical']);
    for (const result of report.flite?.vocabularies ?? []) {
      // 38 words are spoken; the filled pause "um" is not scored.
      expect(result.referenceWords).toBe(37);
      expect(result.dialogues).toEqual([{ id: 'V1', referenceWords: 37, errors: result.errors }]);
      expect(result.errors / result.referenceWords).toBeLessThan(0.35);
      expect(result.audioSeconds).toBeGreaterThan(8);
      expect(result.cpuSeconds).toBeGreaterThan(0);
    }
    expect(progress.join('')).toContain('flite 1/1 V1: 37 words');
  }, 120_000);

  it("decodes real speech pooled with Debian's recordings, both vocabularies, scored per subset", async () => {
    let stdout = '';
    const code = await runAsrEval(
      ['--sets', 'real', '--decoder-args', '-lw 6.5', '--json'],
      { stdout: (text) => (stdout += text), stderr: () => undefined },
      {
        file: join(directory, 'missing.jsonl'),
        realSpeechDirectory: join(directory, 'real-speech'),
        machine: () => ['test machine'],
      },
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalReport;
    expect(report.flite).toBeNull();
    expect(report.decoderArgs).toEqual(['-lw', '6.5']);
    expect(report.real?.sources).toEqual({ librivox: 5, 'real-speech': 2, cards: 5 });
    expect(report.real?.notes).toEqual([]);
    expect(report.real?.vocabularies.map((result) => result.name)).toEqual(['stock', 'clinical']);
    for (const result of report.real?.vocabularies ?? []) {
      expect(result.subsets.map((score) => [score.subset, score.files])).toEqual([
        ['read sentences', 6],
        ['commands', 5],
        ['digits', 1],
      ]);
      expect(result.files).toHaveLength(12);
      for (const score of result.subsets) {
        const files = result.files.filter((file) => file.subset === score.subset);
        // Corpus level: the subset's errors and words are its files' sums.
        expect(score.errors).toBe(files.reduce((sum, file) => sum + file.errors, 0));
        expect(score.referenceWords).toBe(files.reduce((sum, file) => sum + file.referenceWords, 0));
        expect(score.audioSeconds).toBeGreaterThan(0);
        expect(score.cpuSeconds).toBeGreaterThan(0);
      }
      const sentences = result.subsets[0];
      // LibriVox's five references hold some seventy words; a working decoder gets most of them right.
      expect(sentences?.referenceWords).toBeGreaterThan(60);
      expect((sentences?.errors ?? Infinity) / (sentences?.referenceWords ?? 1)).toBeLessThan(0.6);
      const kettle = result.files.find((file) => file.id === 'kettle');
      expect(kettle).toMatchObject({ subset: 'read sentences', source: 'real-speech', referenceWords: 8 });
      expect(kettle?.audioSeconds).toBeGreaterThan(1);
      expect((kettle?.errors ?? Infinity) / 8).toBeLessThan(0.5);
    }
  }, 300_000);

  it("says how to install Debian's recordings when they are missing", async () => {
    let stderr = '';
    const code = await runAsrEval(
      ['--sets', 'real'],
      { stdout: () => undefined, stderr: (text) => (stderr += text) },
      {
        file: join(directory, 'visits.jsonl'),
        realSpeechDirectory: join(directory, 'real-speech'),
        testdataDirectory: join(directory, 'nowhere'),
        machine: () => [],
      },
    );
    expect(code).toBe(1);
    expect(stderr).toContain('apt-get install -y pocketsphinx-testdata');
  });

  it('answers a usage error with status 2 and the usage', async () => {
    let stderr = '';
    const code = await runAsrEval(
      ['--limit', 'x'],
      { stdout: () => undefined, stderr: (text) => (stderr += text) },
      {
        file: join(directory, 'visits.jsonl'),
        realSpeechDirectory: join(directory, 'real-speech'),
        machine: () => [],
      },
    );
    expect(code).toBe(2);
    expect(stderr).toContain('--limit must be a whole number');
    expect(stderr).toContain('Usage: npm run eval:asr');
  });
});
