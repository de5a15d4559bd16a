import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';
import { describe, expect, it } from 'vitest';

import { syntheticVisit } from './synthetic-visit.js';

describe('the synthetic long visit', () => {
  it('is the same text for the same seed, another for another seed', () => {
    expect(syntheticVisit(2000)).toBe(syntheticVisit(2000));
    expect(syntheticVisit(2000, 1)).not.toBe(syntheticVisit(2000, 2));
  });

  it('has at least the words asked for, in alternating doctor and patient turns', () => {
    const text = syntheticVisit(15_000);
    const words = text.split(/\s+/).filter((word) => /\w/.test(word) && !/^\[(doctor|patient)\]$/.test(word));
    expect(words.length).toBeGreaterThanOrEqual(15_000);
    expect(words.length).toBeLessThan(15_100);
    const { turns } = parseConversation(text);
    expect(turns.length).toBeGreaterThan(100);
    expect(new Set(turns.map((turn) => turn.speaker))).toEqual(new Set(['clinician', 'patient']));
  });
});
