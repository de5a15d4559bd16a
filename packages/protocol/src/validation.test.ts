import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { formatDetail, formatPath, validate } from './validation.js';

describe('formatPath', () => {
  it('writes paths the way a developer does', () => {
    expect(formatPath([])).toBe('');
    expect(formatPath(['patient', 'gender'])).toBe('patient.gender');
    expect(formatPath(['noteConfig', 'sections', 2, 'key'])).toBe('noteConfig.sections[2].key');
    expect(formatPath([0, 'name'])).toBe('[0].name');
  });
});

describe('validate', () => {
  const schema = z.strictObject({
    name: z.string().min(1),
    count: z.int().min(1).max(20).optional(),
    kind: z.enum(['a', 'b']).optional(),
    email: z.email().optional(),
    tags: z.array(z.string()).min(1).max(2).optional(),
    code: z
      .string()
      .regex(/^[a-z]+$/, { error: 'must contain only lower-case letters' })
      .optional(),
  });

  it('returns the parsed value', () => {
    expect(validate(schema, { name: 'x', count: 3 })).toEqual({ ok: true, value: { name: 'x', count: 3 } });
  });

  it('phrases each kind of problem after its path, all at once', () => {
    const result = validate(schema, {
      count: 30,
      kind: 'c',
      email: 'nope',
      tags: [],
      code: 'A1',
      extra: true,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.details.map(formatDetail)).toEqual([
      'name: is required',
      'count: must be at most 20',
      'kind: must be one of a, b',
      'email: must be a valid e-mail address',
      'tags: must have at least 1 item',
      'code: must contain only lower-case letters',
      'extra: is not a known field',
    ]);
  });

  it('names the wrong type it got', () => {
    const result = validate(schema, { name: 5, count: 1.5 });
    expect(result.ok ? [] : result.details.map(formatDetail)).toEqual([
      'name: must be a string, not a number',
      'count: must be an integer',
    ]);
  });

  it('reports a problem with the whole value without a path', () => {
    const result = validate(schema, 'text');
    expect(result.ok ? [] : result.details.map(formatDetail)).toEqual(['must be an object, not a string']);
  });

  it('never throws, whatever it is given', () => {
    const weird: unknown[] = [undefined, null, 0, NaN, [], [1, 2], () => 1, Symbol('s'), new Date(), { name: {} }];
    for (const input of weird) expect(() => validate(schema, input)).not.toThrow();
  });
});
