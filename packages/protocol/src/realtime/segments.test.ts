import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareSegmentIds, segmentId, segmentSeq } from './segments.js';

describe('segment ids', () => {
  it.each([
    [1, 'seg_000001'],
    [42, 'seg_000042'],
    [999_999, 'seg_999999'],
    [1_000_000, 'seg_1000000'],
  ])('numbers segment %i as %s, and reads the number back', (seq, id) => {
    expect(segmentId(seq)).toBe(id);
    expect(segmentSeq(id)).toBe(seq);
  });

  it.each(['seg_0000001', 'seg_000000', 'seg_1', 'seg_00001x', 'SEG_000001', ' seg_000001', 'seg_', ''])(
    'reads no number from %j',
    (id) => {
      expect(segmentSeq(id)).toBeUndefined();
    },
  );

  it('orders ids by number, also past six digits, where a string comparison would not', () => {
    expect(compareSegmentIds('seg_000002', 'seg_000010')).toBeLessThan(0);
    expect(compareSegmentIds('seg_1000000', 'seg_999999')).toBeGreaterThan(0);
    expect(['seg_999999', 'seg_1000000'].sort()).toEqual(['seg_1000000', 'seg_999999']);
    expect(compareSegmentIds('seg_000007', 'seg_000007')).toBe(0);
    expect(compareSegmentIds('nonsense', 'seg_000001')).toBeLessThan(0);
  });

  it('orders any two ids as their numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 1, max: 10 ** 9 }), (a, b) => {
        expect(Math.sign(compareSegmentIds(segmentId(a), segmentId(b)))).toBe(Math.sign(a - b));
      }),
    );
  });
});
