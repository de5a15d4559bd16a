import { CLINICAL_DIRECTORY } from '@chartwright/server/internal/asr/vocabularies.js';
import { UsageError } from '@chartwright/server/internal/cli/usage.js';
import { describe, expect, it } from 'vitest';

import { formatReport, type EvalReport } from './report.js';
import { DEFAULT_DIALOGUES, DEFAULT_VOICES, parseArguments, selectDialogues } from './run.js';

const FILE = '/data/valid.jsonl';

describe('eval:asr arguments', () => {
  it('defaults to the documented subset, voices and the shipped clinical vocabulary', () => {
    expect(parseArguments([], FILE)).toEqual({
      file: FILE,
      dialogues: DEFAULT_DIALOGUES,
      limit: null,
      voices: DEFAULT_VOICES,
      clinicalDirectory: CLINICAL_DIRECTORY,
      secondPass: false,
      json: false,
    });
  });

  it('takes a file, dialogue ids or all, a limit, voices, another build, the second pass and JSON output', () => {
    expect(
      parseArguments(
        [
          'other.jsonl',
          '--dialogues',
          'D1, D2',
          '--limit',
          '1',
          '--voices',
          'slt,rms',
          '--clinical',
          '/tmp/c',
          '--second-pass',
          '--json',
        ],
        FILE,
      ),
    ).toEqual({
      file: 'other.jsonl',
      dialogues: ['D1', 'D2'],
      limit: 1,
      voices: { clinician: 'slt', patient: 'rms' },
      clinicalDirectory: '/tmp/c',
      secondPass: true,
      json: true,
    });
    expect(parseArguments(['--dialogues', 'all'], FILE)).toMatchObject({ dialogues: 'all' });
    expect(parseArguments(['--help'], FILE)).toBe('help');
  });

  it.each([
    [['--limit', '0'], '--limit must be a whole number from 1'],
    [['--limit'], '--limit needs a value'],
    [['--voices', 'slt'], '--voices takes two flite voices'],
    [['--dialogues', ','], '--dialogues lists no id'],
    [['--fast'], 'unknown option --fast'],
    [['a.jsonl', 'b.jsonl'], 'give only one JSONL file'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv, FILE)).toThrow(UsageError);
    expect(() => parseArguments(argv, FILE)).toThrow(message);
  });
});

describe('choosing dialogues', () => {
  const jsonl = ['A', 'B', 'C'].map((id) => JSON.stringify({ id, dialogue: `[doctor] hello ${id}` })).join('\n');

  it('takes the listed ids in the order given, or all, then the limit', () => {
    expect(selectDialogues(jsonl, { dialogues: ['C', 'A'], limit: null }).map((d) => d.id)).toEqual(['C', 'A']);
    expect(selectDialogues(jsonl, { dialogues: 'all', limit: 2 }).map((d) => d.id)).toEqual(['A', 'B']);
  });

  it('names an id the file lacks, and a record without a dialogue', () => {
    expect(() => selectDialogues(jsonl, { dialogues: ['Z'], limit: null })).toThrow('no dialogue "Z"');
    expect(() => selectDialogues('{"id":"A"}', { dialogues: 'all', limit: null })).toThrow('line 1: no "dialogue"');
  });
});

describe('the report', () => {
  it('prints WER, CPU and real-time factor per vocabulary and the ratio between them', () => {
    const report: EvalReport = {
      dataset: 'valid.jsonl',
      dialogues: ['D1'],
      voices: { clinician: 'rms', patient: 'awb' },
      clinicalDirectory: '/models/clinical',
      secondPass: true,
      machine: ['CPU: test'],
      date: '2026-11-21',
      vocabularies: [
        {
          name: 'stock',
          referenceWords: 1000,
          errors: 176,
          audioSeconds: 400,
          cpuSeconds: 60,
          loadMs: 900,
          dialogues: [],
        },
        {
          name: 'clinical',
          referenceWords: 1000,
          errors: 123,
          audioSeconds: 400,
          cpuSeconds: 36,
          loadMs: 400,
          dialogues: [],
        },
      ],
    };
    const text = formatReport(report);
    expect(text).toMatch(/stock\s+1,000\s+176\s+17\.6%\s+6\.7\s+60\.0\s+0\.150\s+900/);
    expect(text).toMatch(/clinical\s+1,000\s+123\s+12\.3%\s+6\.7\s+36\.0\s+0\.090\s+400/);
    expect(text).toContain('Clinical vs stock: WER 17.6% → 12.3%, CPU × 0.60');
    expect(text).toContain('Second pass (ASR_SECOND_PASS): on');
  });
});
