import { UsageError } from '@chartwright/server/internal/cli/usage.js';
import { describe, expect, it } from 'vitest';

import { DEFAULTS, parseArguments } from './build-cli.js';

describe('build:asr-vocabulary arguments', () => {
  it('defaults to the measured choice, read from the train split', () => {
    expect(parseArguments([])).toEqual(DEFAULTS);
    expect(DEFAULTS).toMatchObject({
      includeNotes: false,
      clinicalWeight: 0.4,
      stockWords: 0,
      pruneThreshold: 1e-8,
      fillerRate: 0.15,
    });
    expect(DEFAULTS.trainPath).toMatch(/\/shared\/data\/aci-bench\/train\.jsonl$/);
  });

  it('takes every option', () => {
    expect(
      parseArguments([
        '--train',
        '/d/train.jsonl',
        '--out',
        '/tmp/out',
        '--stock',
        '/m',
        '--notes',
        '--weight',
        '1',
        '--stock-words',
        '5000',
        '--prune',
        '0',
        '--fillers',
        '0.05',
      ]),
    ).toEqual({
      trainPath: '/d/train.jsonl',
      outputDirectory: '/tmp/out',
      stockDirectory: '/m',
      includeNotes: true,
      clinicalWeight: 1,
      stockWords: 5000,
      pruneThreshold: 0,
      fillerRate: 0.05,
    });
    expect(parseArguments(['-h'])).toBe('help');
  });

  it.each([
    [['--weight', '1.5'], '--weight must be a number from 0 to 1'],
    [['--prune', 'x'], '--prune must be a number from 0 to 1'],
    [['--fillers', '-0.1'], '--fillers must be a number from 0 to 1'],
    [['--out'], '--out needs a value'],
    [['--fast'], 'unknown option --fast'],
    [['--train', '/d/aci-bench/valid.jsonl'], 'the valid split measures the vocabulary'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });
});
