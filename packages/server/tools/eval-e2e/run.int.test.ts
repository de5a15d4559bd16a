import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runE2eEval, type E2eReport } from './run.js';

/** Needs flite and the recognizer's packages; skipped locally without them, failing in CI. */
const missing = await missingSpeechTools();

/** A short visit written for this test, in ACI-Bench's shape, with the note a clinician might write. */
const DIALOGUE = [
  '[doctor] good morning . what brings you in today ?',
  '[patient] i have had a cough for two weeks and it keeps me up at night .',
  '[doctor] do you have any fever or chills ?',
  '[patient] no fever . my chest feels tight when i climb the stairs .',
  '[doctor] are you taking anything for it ?',
  '[patient] just some honey and tea .',
  '[doctor] your lungs sound clear . i think this is a viral bronchitis . i want you to use an inhaler and come back in two weeks if it is not better .',
  '[patient] okay , thank you .',
].join('\n');
const NOTE = [
  'CHIEF COMPLAINT',
  'Cough.',
  'HISTORY OF PRESENT ILLNESS',
  'The patient reports a cough for two weeks that keeps her up at night, with chest tightness on stairs. She denies fever.',
  'ASSESSMENT AND PLAN',
  'Viral bronchitis. Inhaler. Return in two weeks if not better.',
].join('\n');

describe.skipIf(missing.length > 0)('npm run eval:e2e', () => {
  let directory: string;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'cw-eval-e2e-'));
    writeFileSync(join(directory, 'visits.jsonl'), `${JSON.stringify({ id: 'V1', dialogue: DIALOGUE, note: NOTE })}\n`);
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('streams a visit heard by one microphone through the realtime API and compares its note with the typed transcript’s', async () => {
    let stdout = '';
    const code = await runE2eEval(
      [join(directory, 'visits.jsonl'), '--layouts', 'mono', '--speed', '3', '--json'],
      { stdout: (text) => (stdout += text), stderr: () => undefined },
      { file: join(directory, 'missing.jsonl'), env: {} },
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as E2eReport;
    expect(report.recognizer).toBe('pocketsphinx');
    const [mono] = report.layouts;
    const [visit] = report.visits;
    expect(visit?.speed).toBeGreaterThanOrEqual(1);
    expect(visit?.referenceWords).toBeGreaterThan(60);
    expect(mono?.wer).toBeLessThan(0.3);
    // One microphone: the voices told apart and the one asking questions made the clinician.
    expect(mono?.attribution).toBeGreaterThanOrEqual(0.95);
    expect(mono?.rolesRightVisits).toBe(1);
    // The note from audio keeps most of what the note from the typed transcript scores, in the third person.
    expect(mono?.goldRouge1).toBeGreaterThan(0.2);
    expect(mono?.rouge1Share).toBeGreaterThan(0.75);
    expect(mono?.audioAudit.personShare ?? 0).toBeLessThanOrEqual(0.1);
    expect(mono?.audioAudit.assessmentAndPlanShare).toBe(1);
    // "No fever" heard as it was said: the two notes agree on what was denied.
    expect(visit?.polarityDisagreements).toEqual([]);
    expect(mono?.polarityDisagreements).toBe(0);
  });
});
