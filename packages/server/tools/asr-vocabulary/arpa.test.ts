import { describe, expect, it } from 'vitest';

import { ArpaFormatError, readArpa, writeArpa } from './arpa.js';
import { logProbability } from './backoff-model.js';
import { ids } from './fixtures.js';
import { estimateKneserNey } from './kneser-ney.js';

describe('ARPA files', () => {
  const model = estimateKneserNey([
    ['the', 'knee', 'hurts'],
    ['the', 'pain', 'is', 'better'],
  ]);

  it('writes sorted sections with counts and reads them back unchanged', () => {
    const text = writeArpa(model);
    expect(text.split('\n').slice(0, 4)).toEqual(['\\data\\', 'ngram 1=8', 'ngram 2=8', 'ngram 3=7']);
    expect(text).toContain('\\3-grams:');
    expect(text.trimEnd().endsWith('\\end\\')).toBe(true);
    const again = readArpa(text);
    expect(writeArpa(again)).toBe(text);
    const [hurts = -1] = ids(model, 'hurts');
    const [hurtsAgain = -1] = ids(again, 'hurts');
    expect(logProbability(again, ids(again, 'the knee'), hurtsAgain)).toBeCloseTo(
      logProbability(model, ids(model, 'the knee'), hurts),
      5,
    );
  });

  it('refuses a file whose sections disagree with its header', () => {
    const text = writeArpa(model).replace('ngram 2=8', 'ngram 2=9');
    expect(() => readArpa(text)).toThrow(ArpaFormatError);
    expect(() => readArpa('no header')).toThrow(ArpaFormatError);
  });
});
