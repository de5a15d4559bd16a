import { CLINICAL_DIRECTORY } from '@chartwright/server/internal/asr/vocabularies.js';
import { UsageError } from '@chartwright/server/internal/cli/usage.js';
import { describe, expect, it } from 'vitest';

import {
  formatReport,
  poolBySubset,
  readSentencesVerdict,
  type EvalReport,
  type FileScore,
  type RealReport,
} from './report.js';
import { DEFAULT_DIALOGUES, DEFAULT_VOICES, parseArguments, selectDialogues, withOverrides } from './run.js';

const DEFAULTS = { file: '/data/valid.jsonl', realSpeechDirectory: '/data/real-speech' };
const FILE = DEFAULTS.file;

describe('eval:asr arguments', () => {
  it('defaults to the documented subset, voices and the shipped clinical vocabulary', () => {
    expect(parseArguments([], DEFAULTS)).toEqual({
      sets: ['flite', 'real'],
      realSpeechDirectory: '/data/real-speech',
      file: FILE,
      dialogues: DEFAULT_DIALOGUES,
      limit: null,
      voices: DEFAULT_VOICES,
      clinicalDirectory: CLINICAL_DIRECTORY,
      secondPass: false,
      decoderArgs: [],
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
        DEFAULTS,
      ),
    ).toEqual({
      sets: ['flite', 'real'],
      realSpeechDirectory: '/data/real-speech',
      file: 'other.jsonl',
      dialogues: ['D1', 'D2'],
      limit: 1,
      voices: { clinician: 'slt', patient: 'rms' },
      clinicalDirectory: '/tmp/c',
      secondPass: true,
      decoderArgs: [],
      json: true,
    });
    expect(parseArguments(['--dialogues', 'all'], DEFAULTS)).toMatchObject({ dialogues: 'all' });
    expect(parseArguments(['--help'], DEFAULTS)).toBe('help');
  });

  it('takes the sets to run, another real-speech directory and decoder arguments for both vocabularies', () => {
    expect(
      parseArguments(
        ['--sets', 'real', '--real-speech', '/tmp/rs', '--decoder-args', ' -lw 7  -cmninit 40,3,-1 '],
        DEFAULTS,
      ),
    ).toMatchObject({
      sets: ['real'],
      realSpeechDirectory: '/tmp/rs',
      decoderArgs: ['-lw', '7', '-cmninit', '40,3,-1'],
    });
    // Always in the same order, whatever order they are given in, and each once.
    expect(parseArguments(['--sets', 'real,flite,real'], DEFAULTS)).toMatchObject({ sets: ['flite', 'real'] });
    expect(parseArguments(['--sets', 'flite'], DEFAULTS)).toMatchObject({ sets: ['flite'] });
  });

  it.each([
    [['--limit', '0'], '--limit must be a whole number from 1'],
    [['--limit'], '--limit needs a value'],
    [['--voices', 'slt'], '--voices takes two flite voices'],
    [['--dialogues', ','], '--dialogues lists no id'],
    [['--fast'], 'unknown option --fast'],
    [['a.jsonl', 'b.jsonl'], 'give only one JSONL file'],
    [['--sets', 'real,people'], '--sets takes flite and/or real, not "people"'],
    [['--sets', ''], '--sets takes flite and/or real, not ""'],
    [['--real-speech'], '--real-speech needs a value'],
    [['--decoder-args', '  '], '--decoder-args is empty'],
    [['--decoder-args', '-lw'], '--decoder-args takes PocketSphinx "-name value" pairs'],
    [['--decoder-args', '7 -lw'], '--decoder-args takes PocketSphinx "-name value" pairs'],
    [['--decoder-args', '-lw 7 -vad_postspeech 20 -hmm /x'], 'cannot set -vad_postspeech, -hmm'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv, DEFAULTS)).toThrow(UsageError);
    expect(() => parseArguments(argv, DEFAULTS)).toThrow(message);
  });
});

describe('decoder arguments for a vocabulary with its own tuning', () => {
  it('replace its values flag by flag and add the flags it lacks, since PocketSphinx refuses a flag twice', () => {
    expect(withOverrides(['-lw', '8', '-beam', '1e-60'], ['-lw', '7', '-cmninit', '40,3,-1'])).toEqual([
      '-lw',
      '7',
      '-beam',
      '1e-60',
      '-cmninit',
      '40,3,-1',
    ]);
    expect(withOverrides(['-lw', '8'], [])).toEqual(['-lw', '8']);
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

function realReport(readSentencesErrors: { stock: number; clinical: number }): RealReport {
  const vocabulary = (name: 'stock' | 'clinical', errors: number): RealReport['vocabularies'][number] => ({
    name,
    subsets: [
      { subset: 'read sentences', files: 6, referenceWords: 200, errors, audioSeconds: 60.25, cpuSeconds: 12.5 },
      { subset: 'digits', files: 2, referenceWords: 12, errors: 13, audioSeconds: 10, cpuSeconds: 3 },
    ],
    files: [],
  });
  return {
    directory: '/data/real-speech',
    sources: { librivox: 5, 'real-speech': 3 },
    notes: [],
    vocabularies: [
      vocabulary('stock', readSentencesErrors.stock),
      vocabulary('clinical', readSentencesErrors.clinical),
    ],
  };
}

describe('corpus-level scores', () => {
  const file = (subset: FileScore['subset'], referenceWords: number, errors: number): FileScore => ({
    id: `${subset}-${referenceWords}`,
    subset,
    source: 'test',
    referenceWords,
    errors,
    audioSeconds: referenceWords / 2,
  });

  it("sums errors and words over a subset's files, so a long file counts for its words", () => {
    // Per-file rates 100% and 10% average to 55%; the corpus has 11 errors in 101 words.
    const pooled = poolBySubset([file('read sentences', 1, 1), file('read sentences', 100, 10)], {
      'read sentences': 4,
    });
    expect(pooled).toEqual([
      { subset: 'read sentences', files: 2, referenceWords: 101, errors: 11, audioSeconds: 50.5, cpuSeconds: 4 },
    ]);
  });

  it('keeps each subset apart, in the fixed order, and leaves out subsets without files', () => {
    const pooled = poolBySubset([file('digits', 6, 7), file('read sentences', 10, 2), file('digits', 6, 5)], {});
    expect(pooled.map((score) => [score.subset, score.files, score.referenceWords, score.errors])).toEqual([
      ['read sentences', 1, 10, 2],
      ['digits', 2, 12, 12],
    ]);
    expect(pooled[1]?.cpuSeconds).toBe(0);
  });
});

describe('the report', () => {
  const flite: NonNullable<EvalReport['flite']> = {
    dataset: 'valid.jsonl',
    dialogues: ['D1'],
    voices: { clinician: 'rms', patient: 'awb' },
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
  const common = {
    clinicalDirectory: '/models/clinical',
    secondPass: true,
    decoderArgs: ['-lw', '7'],
    machine: ['CPU: test'],
    date: '2026-11-21',
  };

  it('prints WER, CPU and real-time factor per vocabulary on flite and the ratio between them', () => {
    const text = formatReport({ ...common, flite, real: null });
    expect(text).toMatch(/stock\s+1,000\s+176\s+17\.6%\s+6\.7\s+60\.0\s+0\.150\s+900/);
    expect(text).toMatch(/clinical\s+1,000\s+123\s+12\.3%\s+6\.7\s+36\.0\s+0\.090\s+400/);
    expect(text).toContain('Clinical vs stock: WER 17.6% → 12.3%, CPU × 0.60');
    expect(text).toContain('Second pass (ASR_SECOND_PASS): on');
    expect(text).toContain('Extra decoder arguments: -lw 7');
    expect(text).not.toContain('Real speech');
  });

  it('prints real speech per subset, stock beside clinical, and which wins on read sentences', () => {
    const real = { ...realReport({ stock: 64, clinical: 90 }), notes: ['no real-speech set at /x'] };
    const text = formatReport({ ...common, flite, real });
    expect(text).toContain('Real speech: librivox 5, real-speech 3 recordings');
    expect(text).toContain('Note: no real-speech set at /x');
    expect(text).toMatch(/read sentences\s+6\s+200\s+60\.3\s+32\.0%\s+45\.0%\s+12\.5\s+12\.5/);
    expect(text).toMatch(/digits\s+2\s+12\s+10\.0\s+108\.3%\s+108\.3%\s+3\.0\s+3\.0/);
    expect(text).toContain('On real read sentences stock wins (stock 32.0%, clinical 45.0%).');
    // Both sets are reported, real speech first.
    expect(text.indexOf('Real speech')).toBeLessThan(text.indexOf('Flite speech'));
  });

  it('names the winner on real read sentences by errors, and says so when there is none', () => {
    expect(readSentencesVerdict(realReport({ stock: 50, clinical: 40 }))).toBe(
      'On real read sentences clinical wins (stock 25.0%, clinical 20.0%).',
    );
    expect(readSentencesVerdict(realReport({ stock: 40, clinical: 40 }))).toContain('neither vocabulary wins');
    expect(readSentencesVerdict({ ...realReport({ stock: 1, clinical: 1 }), vocabularies: [] })).toBe(
      'No real read sentences were scored.',
    );
  });
});
