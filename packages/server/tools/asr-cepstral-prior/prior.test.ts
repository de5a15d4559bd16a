import { readCepstralPrior } from '@chartwright/server/internal/asr/pocketsphinx/cepstral-prior.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { cepstralPrior, formatCepstralPrior } from './prior.js';

const vector = (first: number): number[] => Array.from({ length: 13 }, (_, index) => first + index);

describe('the cepstral prior', () => {
  it('weighs each group of recordings alike, however many recordings it has', () => {
    const prior = cepstralPrior([
      { group: 'digits', mean: vector(10) },
      { group: 'digits', mean: vector(10) },
      { group: 'digits', mean: vector(10) },
      { group: 'read', mean: vector(40) },
    ]);
    expect(prior.mean).toEqual(vector(25));
    expect(prior.groups).toEqual({ digits: 3, read: 1 });
  });

  it('refuses a mean of the wrong length and an empty set', () => {
    expect(() => cepstralPrior([{ group: 'read', mean: [1, 2, 3] }])).toThrow(/read: a mean of 3 values/);
    expect(() => cepstralPrior([])).toThrow(RangeError);
  });

  it('is written as the service reads it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'prior-')), 'cepstral-prior.json');
    writeFileSync(file, formatCepstralPrior(cepstralPrior([{ group: 'read', mean: vector(40.123) }])));
    expect(readCepstralPrior(file)).toEqual(vector(40.12).map((value) => Math.round(value * 100) / 100));
  });

  it('is refused by the service when it is not 13 finite numbers', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'prior-')), 'cepstral-prior.json');
    writeFileSync(file, JSON.stringify({ about: '', mean: [1, 2, null] }));
    expect(() => readCepstralPrior(file)).toThrow(/"mean" must hold 13 numbers/);
  });
});
