import { describe, expect, it } from 'vitest';

import { completed } from './register.js';

// Sentences written for this test, as the rewriter leaves spoken ones.
describe('a complete sentence', () => {
  it('is itself when it ends on its point', () => {
    expect(completed('Advised to continue to ice it.')).toBe('Advised to continue to ice it.');
    expect(completed('It stopped after 4 days, and she has not had any since then.')).toBe(
      'It stopped after 4 days, and she has not had any since then.',
    );
    expect(completed('She has not had any problems since.')).toBe('She has not had any problems since.');
  });

  it('is nothing when speech was cut off before its point', () => {
    expect(completed('Again, he is doing really.')).toBeNull();
    expect(completed('We will go ahead.')).toBeNull();
  });

  it('ends before a last word that only leads on', () => {
    expect(completed('My concern is that they might have lyme disease based.')).toBe(
      'My concern is that they might have lyme disease.',
    );
  });

  it('keeps what was said before a cut-off last clause, when that stands alone', () => {
    expect(completed('See the patient back in 2 weeks, and I am going.')).toBe('See the patient back in 2 weeks.');
    expect(completed('When I get the results from the test, I will contact he.')).toBeNull();
  });

  it('is nothing for the rest of a sentence said before it, but what that goes on to decide', () => {
    expect(completed('That there is nothing else going on with the shoulder.')).toBeNull();
    expect(completed('That is a good sign.')).toBe('That is a good sign.');
    expect(completed('That we catch it in time, and I am also going to order a urinalysis.')).toBe(
      'I am also going to order a urinalysis.',
    );
  });
});
