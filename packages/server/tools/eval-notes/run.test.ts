import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { UsageError } from '@chartwright/server/internal/cli/usage.js';
import type { NoteGenerator } from '@chartwright/server/internal/notes/generator.js';
import { CURATED_TEMPLATES } from '@chartwright/server/internal/notes/templates.js';
import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';
import { afterAll, describe, expect, it } from 'vitest';

import { copyDialogue, copyDialogueGenerator } from './baseline.js';
import { main } from './cli.js';
import { DatasetError, parseJsonl, percentile, proseSentences, type EvaluationReport } from './evaluate.js';
import { rougeScores } from './rouge.js';
import { parseArguments, runEval, type EvalDependencies } from './run.js';

// Two small synthetic visits, written for these tests (no data set text).
const RECORDS = [
  {
    id: 'visit-1',
    dialogue: [
      '[doctor] good morning , what brings you in ?',
      '[patient] my right knee hurts when i climb stairs , for about two weeks now .',
      '[doctor] any swelling ?',
      '[patient] a little swelling in the evening .',
      '[doctor] on exam the knee is tender on the inside . take ibuprofen 400 mg twice a day and ice it .',
    ].join('\n'),
    note: [
      'CHIEF COMPLAINT',
      '',
      'Right knee pain.',
      '',
      'HISTORY OF PRESENT ILLNESS',
      '',
      'The patient reports right knee pain when climbing stairs for 2 weeks, with mild evening swelling.',
      '',
      'PHYSICAL EXAM',
      '',
      'Medial knee tenderness.',
      '',
      'ASSESSMENT AND PLAN',
      '',
      'Knee pain. Ibuprofen 400 mg twice a day and ice.',
    ].join('\n'),
    subset: 'synthetic',
  },
  {
    id: 'visit-2',
    dialogue: [
      '[doctor] how is the cough ?',
      '[patient] still coughing at night , no fever .',
      '[patient_guest] she has been tired too .',
      '[doctor] your chest x-ray was clear . use the inhaler two puffs as needed and come back in one month .',
    ].join('\n'),
    note: [
      'CC:',
      '',
      'Cough.',
      '',
      'HPI:',
      '',
      'Night cough and fatigue. Denies fever.',
      '',
      'RESULTS',
      '',
      'Chest x-ray clear.',
      '',
      'PLAN',
      '',
      'Inhaler 2 puffs as needed. Follow up in 1 month.',
    ].join('\n'),
  },
];

const JSONL = `${RECORDS.map((record) => JSON.stringify(record)).join('\n')}\n`;

const directory = mkdtempSync(join(tmpdir(), 'chartwright-eval-'));
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function datasetFile(name: string, text: string): string {
  const file = join(directory, name);
  writeFileSync(file, text);
  return file;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    output: { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

function dependencies(engines: Record<string, NoteGenerator> = { copy: copyDialogueGenerator }): EvalDependencies {
  let clock = 0;
  return {
    engines,
    templates: CURATED_TEMPLATES,
    parse: parseConversation,
    machine: () => ['CPU:    test'],
    // Each call advances 5 ms, so every note takes 5 ms between its two readings.
    now: () => (clock += 5),
    today: () => '2026-11-21',
  };
}

describe('copyDialogue', () => {
  it('drops the speaker tags and blank lines, one turn a line', () => {
    expect(copyDialogue('[doctor] hi .\r\n\n[patient_guest] hello there\n  [patient]  ok  ')).toBe(
      'hi .\nhello there\nok',
    );
  });
});

describe('parseJsonl', () => {
  it('reads records, ignores other fields and blank lines', () => {
    const records = parseJsonl(`\n${JSONL}\n\n`);
    expect(records.map((record) => record.id)).toEqual(['visit-1', 'visit-2']);
    expect(Object.keys(records[0]!)).toEqual(['id', 'dialogue', 'note']);
  });

  it('names the line of a bad record', () => {
    expect(() => parseJsonl('{"id":"a","dialogue":"x","note":"y"}\n{"id":"b","dialogue":"x"}', 'data.jsonl')).toThrow(
      new DatasetError('data.jsonl:2: "note" must be a string'),
    );
    expect(() => parseJsonl('not json', 'f')).toThrow(/^f:1: not JSON/);
    expect(() => parseJsonl('[1]', 'f')).toThrow('f:1: expected an object');
    expect(() => parseJsonl('{"id":"a","dialogue":"","note":""}\n{"id":"a","dialogue":"","note":""}', 'f')).toThrow(
      'f:2: duplicate id "a"',
    );
    expect(() => parseJsonl('\n', 'f')).toThrow('f: no records');
  });
});

describe('parseArguments', () => {
  it('reads the file and options', () => {
    expect(parseArguments(['data.jsonl'])).toEqual({
      file: 'data.jsonl',
      template: 'history_and_physical',
      style: 'detailed',
      engine: 'extractive',
      json: false,
      showUnsupported: false,
    });
    expect(parseArguments(['--json', '--template=soap', '--engine', 'x', 'f.jsonl', '--show-unsupported'])).toEqual({
      file: 'f.jsonl',
      template: 'soap',
      style: 'detailed',
      engine: 'x',
      json: true,
      showUnsupported: true,
    });
    expect(parseArguments(['--help'])).toBe('help');
  });

  it('rejects a missing or extra file, unknown options and missing values', () => {
    expect(() => parseArguments([])).toThrow(UsageError);
    expect(() => parseArguments(['a', 'b'])).toThrow('give only one JSONL file');
    expect(() => parseArguments(['a', '--fast'])).toThrow('unknown option --fast');
    expect(() => parseArguments(['a', '--template'])).toThrow('--template needs a value');
    expect(() => parseArguments(['a', '--style', 'brief'])).toThrow(
      'unknown --style "brief"; known: detailed, concise',
    );
  });

  it('reads the note style', () => {
    expect(parseArguments(['a', '--style', 'concise'])).toMatchObject({ style: 'concise' });
    expect(parseArguments(['a', '--style=concise'])).toMatchObject({ style: 'concise' });
  });
});

describe('helpers', () => {
  it('takes nearest-rank percentiles', () => {
    expect(percentile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 0.95)).toBe(19);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('splits prose into sentences, without bullets', () => {
    expect(proseSentences('• Neck: JVD. No bruit.\n1. CHF.\n\nDr. Lee saw her')).toEqual([
      'Neck: JVD.',
      'No bruit.',
      'CHF.',
      'Dr.',
      'Lee saw her',
    ]);
  });
});

describe('runEval end to end (copy-the-dialogue engine)', () => {
  it('prints the table with the engine, the baseline and the section groups', async () => {
    const io = capture();
    const code = await runEval([datasetFile('two.jsonl', JSONL), '--engine', 'copy'], io.output, dependencies());
    expect(io.stderr()).toBe('');
    expect(code).toBe(0);
    const text = io.stdout();
    expect(text).toContain('2 notes, template history_and_physical v1, style detailed, 2026-11-21');
    expect(text).toMatch(/^copy-dialogue 1 +0\.\d{4} +0\.\d{4} +0\.\d{4} +0\.\d{4} +1\.0000 \(\d+\/\d+\)/m);
    expect(text).toMatch(/^copy-dialogue baseline +0\.\d{4}/m);
    expect(text).toMatch(/^assessment_plan +2 +0 +0 +0\.0000 +0\.0000$/m);
    expect(text).toContain('p50 5.0 ms, p95 5.0 ms');
    expect(text).toContain('CPU:    test');
  });

  it('gives the same figures in JSON, and the baseline matches its definition', async () => {
    const io = capture();
    const code = await runEval([datasetFile('two.jsonl', JSONL), '--engine=copy', '--json'], io.output, dependencies());
    expect(code).toBe(0);
    const report = JSON.parse(io.stdout()) as EvaluationReport & { date: string; dataset: string };
    expect(report.date).toBe('2026-11-21');
    expect(report.notes).toBe(2);
    expect(report.template).toEqual({ id: 'history_and_physical', version: 1 });

    // The baseline: the tag-free dialogue against each note, F1 per note, then the mean.
    const expected = RECORDS.map((record) => rougeScores(record.note, copyDialogue(record.dialogue)));
    const { baseline, engine } = report.systems;
    for (const type of ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const) {
      expect(baseline.rouge[type].f1).toBeCloseTo((expected[0]![type].f1 + expected[1]![type].f1) / 2, 12);
      expect(baseline.rouge[type].f1).toBeGreaterThan(0);
    }
    // The copy engine writes the same words as the baseline (under a heading), so similar scores.
    expect(engine.rouge.rouge1.f1).toBeGreaterThan(0.3);
    expect(engine.faithfulness).toEqual({ sentences: 9, supported: 9, share: 1 });
    expect(baseline.faithfulness).toEqual({ sentences: 9, supported: 9, share: 1 });
    expect(engine.evidence).toEqual({ sentences: 9, withEvidence: 9, share: 1 });
    // Every note goes through the verifier, as in the service: each sentence has its class.
    const classed = Object.values(report.audit.support).reduce((sum, count) => sum + count, 0);
    expect(classed).toBe(9);
    expect(engine.timing).toEqual({ p50Ms: 5, p95Ms: 5, meanMs: 5, maxMs: 5 });
    expect(report.referenceFaithfulness.sentences).toBe(11);

    // It writes everything in the first section (chief complaint: history), so the other groups score 0.
    const groups = Object.fromEntries(report.sections.map((section) => [section.group, section]));
    expect(groups['history']).toMatchObject({ references: 2, filled: 2, extra: 0 });
    expect(groups['history']!.rouge1).toBeGreaterThan(0);
    expect(groups['exam']).toMatchObject({ references: 1, filled: 0, rouge1: 0, rougeLsum: 0 });
    expect(groups['results']).toMatchObject({ references: 1, filled: 0 });
    expect(groups['ros']).toMatchObject({ references: 0, rouge1: null, rougeLsum: null });
    expect(report.perNote.map((note) => Object.keys(note.engine.sections))).toEqual([
      ['history', 'exam', 'assessment_plan'],
      ['history', 'results', 'assessment_plan'],
    ]);
  });

  it('scores a failing engine 0 on that note, reports it and exits 1', async () => {
    const flaky: NoteGenerator = {
      engine: { name: 'flaky', version: '0' },
      generate: (input, options) =>
        input.conversation.turns.length === 4
          ? Promise.reject(new Error('model unavailable'))
          : copyDialogueGenerator.generate(input, options),
    };
    const io = capture();
    const code = await runEval(
      [datasetFile('two.jsonl', JSONL), '--engine', 'flaky'],
      io.output,
      dependencies({ flaky }),
    );
    expect(code).toBe(1);
    expect(io.stdout()).toContain('FAILED: the engine threw on 1 note(s); they score 0.');
    expect(io.stdout()).toContain('  visit-2: model unavailable');
  });

  it('reports usage, unknown templates and engines, and unreadable or bad files with exit status 2', async () => {
    const cases: [string[], RegExp][] = [
      [[], /give one JSONL file/],
      [[join(directory, 'missing.jsonl'), '--engine', 'copy'], /cannot read .*missing\.jsonl/],
      [[datasetFile('bad.jsonl', '{"id": 1}'), '--engine', 'copy'], /bad\.jsonl:1: "dialogue" must be a string/],
      [
        ['x.jsonl', '--template', 'nope', '--engine', 'copy'],
        /unknown --template "nope"; known: soap, history_and_physical/,
      ],
      [['x.jsonl'], /unknown --engine "extractive"; known: copy/],
    ];
    for (const [argv, message] of cases) {
      const io = capture();
      expect(await runEval(argv, io.output, dependencies())).toBe(2);
      expect(io.stderr()).toMatch(message);
    }
    const help = capture();
    expect(await runEval(['--help'], help.output, dependencies())).toBe(0);
    expect(help.stdout()).toContain('Usage: npm run eval:notes');
  });
});

describe('the eval:notes command with the real engine', () => {
  it('generates notes with the extractive engine and beats the copy baseline on the synthetic visits', async () => {
    const io = capture();
    const code = await main([datasetFile('two.jsonl', JSONL), '--json'], io.output);
    expect(io.stderr()).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(io.stdout()) as EvaluationReport;
    expect(report.engine.name).toBe('extractive');
    expect(report.systems.engine.failures).toBe(0);
    expect(report.systems.engine.faithfulness.sentences).toBeGreaterThan(0);
    expect(report.systems.engine.evidence?.share).toBe(1);
    expect(report.systems.engine.rouge.rouge1.f1).toBeGreaterThan(report.systems.baseline.rouge.rouge1.f1);
  });
});
