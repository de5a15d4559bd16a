import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  hiddenEventModel,
  QUESTION_END,
  STATEMENT_END,
} from '@chartwright/server/internal/text/punctuation/hidden-event-model.js';
import { sentenceEnds } from '@chartwright/server/internal/text/punctuation/sentence-ends.js';
import { afterAll, describe, expect, it } from 'vitest';

import { parseArguments } from './build-cli.js';
import { buildPunctuationModel, endScore, formatPunctuationModel, punctuatedDialogues, tokenTurns } from './build.js';

/** Visits written for the test: short exchanges, each turn two or three sentences. */
const turns = [
  '[doctor] hi, how are you? what brings you in today?',
  '[patient] okay. my knee hurts when i walk. it started last week.',
  '[doctor] okay. does it swell? any fever?',
  '[patient] no fever. it swells at night. the pain is worse in the morning.',
  '[doctor] okay. let me take a look at your knee. i think it is a sprain.',
  '[patient] okay. that sounds good. thank you.',
];
const visit = (index: number) => turns.map((turn) => turn.replace('last week', `${index + 2} weeks ago`)).join('\n');
const unpunctuated = '[doctor] hi how are you doing today\n[patient] good thanks my knee hurts';

const directory = mkdtempSync(join(tmpdir(), 'punctuation-model-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function trainFile(dialogues: string[]): string {
  const path = join(directory, `train-${dialogues.length}.jsonl`);
  writeFileSync(
    path,
    dialogues.map((dialogue, index) => JSON.stringify({ id: `T${index}`, dialogue, note: '' })).join('\n'),
  );
  return path;
}

describe('the punctuation model builder', () => {
  it('reads each turn as spoken words with a token for each sentence end, as typed', () => {
    expect(tokenTurns('[doctor] hi, how are you? my knee hurts 10 days.\n[patient] okay')).toEqual([
      ['hi', 'how', 'are', 'you', QUESTION_END, 'my', 'knee', 'hurts', 'ten', 'days', STATEMENT_END],
      ['okay', STATEMENT_END],
    ]);
  });

  it('counts only dialogues typed with sentence marks', () => {
    const path = trainFile([visit(0), unpunctuated]);
    expect(punctuatedDialogues(path)).toEqual([visit(0)]);
  });

  it('builds a model that places the ends it was counted with, the same bytes every time', () => {
    const path = trainFile(Array.from({ length: 10 }, (_, index) => visit(index)));
    const file = buildPunctuationModel(path);
    expect(file.trainedOn.dialogues).toBe(10);
    expect(file.order).toBe(3);
    expect(file.neverLast).toContain('the');
    expect(file.usuallyLast).toContain('okay');
    const model = hiddenEventModel(file);
    const { ends, last } = sentenceEnds('okay my knee hurts when i walk it swells at night'.split(' '), model);
    expect(ends.flatMap((end, gap) => (end === null ? [] : [gap]))).toEqual([0, 6]);
    expect(last).toBe('.');
    expect(endScore(file, tokenTurns(visit(11))).f1).toBeGreaterThan(0.9);
    expect(formatPunctuationModel(buildPunctuationModel(path))).toBe(formatPunctuationModel(file));
    expect(JSON.parse(formatPunctuationModel(file))).toEqual(file);
  });

  it('refuses the valid split, which measures the notes', () => {
    expect(() => parseArguments(['--train', '/data/aci-bench/valid.jsonl'])).toThrow(/train split/);
    expect(parseArguments(['--help'])).toBe('help');
  });
});
