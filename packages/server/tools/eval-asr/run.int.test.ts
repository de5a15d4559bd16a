import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('speaks a dialogue, decodes it with both vocabularies and reports WER and CPU', async () => {
    let stdout = '';
    const progress: string[] = [];
    const code = await runAsrEval(
      [join(directory, 'visits.jsonl'), '--dialogues', 'all', '--json'],
      { stdout: (text) => (stdout += text), stderr: (text) => progress.push(text) },
      { defaultFile: join(directory, 'missing.jsonl'), machine: () => ['test machine'] },
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as EvalReport;
    expect(report.dialogues).toEqual(['V1']);
    expect(report.vocabularies.map((result) => result.name)).toEqual(['stock', 'clinical']);
    for (const result of report.vocabularies) {
      // 38 words are spoken; the filled pause "um" is not scored.
      expect(result.referenceWords).toBe(37);
      expect(result.dialogues).toEqual([{ id: 'V1', referenceWords: 37, errors: result.errors }]);
      expect(result.errors / result.referenceWords).toBeLessThan(0.35);
      expect(result.audioSeconds).toBeGreaterThan(8);
      expect(result.cpuSeconds).toBeGreaterThan(0);
    }
    expect(progress.join('')).toContain('1/1 V1: 37 words');
  }, 120_000);

  it('answers a usage error with status 2 and the usage', async () => {
    let stderr = '';
    const code = await runAsrEval(
      ['--limit', 'x'],
      { stdout: () => undefined, stderr: (text) => (stderr += text) },
      {
        defaultFile: join(directory, 'visits.jsonl'),
        machine: () => [],
      },
    );
    expect(code).toBe(2);
    expect(stderr).toContain('--limit must be a whole number');
    expect(stderr).toContain('Usage: npm run eval:asr');
  });
});
