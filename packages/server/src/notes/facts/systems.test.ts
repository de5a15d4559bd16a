import { describe, expect, it } from 'vitest';

import { conditionsIn, proceduresIn } from './condition-mentions.js';
import { systemOf } from './systems.js';

describe('review-of-systems systems', () => {
  it('files the symptoms named by two words apart under their own system, not Musculoskeletal', () => {
    expect(systemOf({ name: 'weight change' })).toBe('Constitutional');
    expect(systemOf({ name: 'vision problems' })).toBe('Eyes');
    expect(systemOf({ name: 'hearing loss' })).toBe('Ears, Nose, Mouth and Throat');
    expect(systemOf({ name: 'knee pain', location: 'knee' })).toBe('Musculoskeletal');
  });
});

describe('history names', () => {
  it('knows the cancers a family history names, and tells a lumpectomy from a mastectomy', () => {
    expect(conditionsIn("my mom had non-hodgkin's lymphoma").map((mention) => mention.entry.name)).toEqual([
      'lymphoma',
    ]);
    expect(conditionsIn('his brother had leukemia').map((mention) => mention.entry.name)).toEqual(['leukemia']);
    expect(proceduresIn('she had a lumpectomy in 2019').map((mention) => mention.entry.name)).toEqual(['lumpectomy']);
  });
});
