import { describe, expect, it } from 'vitest';

import { hiddenEventModel, QUESTION_END, SENTENCE_START, STATEMENT_END, UNKNOWN_WORD } from './hidden-event-model.js';
import { sentenceEnds } from './sentence-ends.js';

/**
 * A unigram model in which an end is as likely as any word, so the search's own rules decide:
 * with a bonus for ends, it ends a sentence wherever they allow one.
 */
const words = ['okay', 'so', 'the', 'knee', 'hurts', 'it', 'swells', 'i', 'do', 'you', 'smoke'];
const uniform = Math.log10(1 / (words.length + 3));
const model = hiddenEventModel({
  trainedOn: { dialogues: 0, words: 0 },
  order: 3,
  endBonus: 2,
  neverLast: ['the'],
  usuallyLast: ['okay'],
  ngrams: Object.fromEntries(
    [...words, STATEMENT_END, QUESTION_END, UNKNOWN_WORD, SENTENCE_START].map((token) => [token, [uniform]]),
  ),
});
const ended = (text: string) => {
  const said = text.split(' ');
  const { ends, last } = sentenceEnds(said, model);
  return said.map((word, index) => `${word}${(index < ends.length ? ends[index] : last) ?? ''}`).join(' ');
};

describe('sentenceEnds', () => {
  it('ends a sentence of three words or more wherever the model prefers it', () => {
    expect(ended('so the knee hurts it swells')).toMatch(/^so the knee[.?] hurts it swells[.?]$/);
  });

  it('lets a shorter sentence end only on a word that usually ends one', () => {
    expect(ended('okay so the knee hurts')).toMatch(/^okay[.?] so the knee hurts[.?]$/);
    expect(ended('so knee okay so the knee hurts')).toMatch(/^so knee okay[.?] so the knee hurts[.?]$/);
  });

  it('never ends a sentence after a word that almost never ends one, or inside a repeated word', () => {
    expect(ended('so it the knee hurts it swells')).toMatch(/^so it the knee[.?] hurts it swells[.?]$/);
    expect(ended('so it i i do smoke')).toMatch(/^so it i i do smoke[.?]$/);
  });

  it('reads a subject said again with its verb as a restart, and a noun phrase said again as a new sentence', () => {
    expect(ended('so it swells it swells the knee hurts')).toMatch(/^so it swells it swells[.?] the knee hurts[.?]$/);
    expect(ended('so the knee the knee hurts it swells')).toMatch(/^so the knee[.?] the knee hurts it swells[.?]$/);
  });

  it('reads words it never counted as unknown, and ends every text, even one word', () => {
    expect(ended('okay')).toMatch(/^okay[.?]$/);
    expect(sentenceEnds(['zygomatic'], model).ends).toEqual([]);
    expect(sentenceEnds([], model)).toEqual({ ends: [], last: '.' });
  });
});
