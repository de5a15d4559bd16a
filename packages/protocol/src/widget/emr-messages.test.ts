import { describe, expect, it } from 'vitest';

import { EMR_TO_WIDGET_MESSAGE_TYPES, emrToWidgetMessageSchema } from './emr-messages.js';
import { validateEmrToWidgetMessage } from './validate-message.js';

describe('EMR → widget message types', () => {
  it('lists each type once, frozen, in step with the union', () => {
    expect(EMR_TO_WIDGET_MESSAGE_TYPES).toEqual(['PATIENT_CONTEXT', 'SET_CONTEXT', 'TOKEN_REFRESH', 'CLOSE_WIDGET']);
    expect(Object.isFrozen(EMR_TO_WIDGET_MESSAGE_TYPES)).toBe(true);
    expect(emrToWidgetMessageSchema.options.map((option) => option.shape.type.value)).toEqual([
      ...EMR_TO_WIDGET_MESSAGE_TYPES,
    ]);
  });
});

describe('SET_CONTEXT', () => {
  it('defaults mode to append', () => {
    expect(validateEmrToWidgetMessage({ type: 'SET_CONTEXT', context: 'Seen with parent.' })).toEqual({
      ok: true,
      message: { type: 'SET_CONTEXT', context: 'Seen with parent.', mode: 'append' },
    });
  });

  it('accepts both modes, and an empty context', () => {
    for (const mode of ['append', 'overwrite'] as const) {
      expect(validateEmrToWidgetMessage({ type: 'SET_CONTEXT', context: '', mode })).toEqual({
        ok: true,
        message: { type: 'SET_CONTEXT', context: '', mode },
      });
    }
  });

  it('refuses a missing context and an unknown mode', () => {
    expect(validateEmrToWidgetMessage({ type: 'SET_CONTEXT', mode: 'replace' })).toEqual({
      ok: false,
      type: 'SET_CONTEXT',
      entries: ['context: is required', 'mode: must be one of append, overwrite'],
    });
    expect(validateEmrToWidgetMessage({ type: 'SET_CONTEXT', context: ['a'], mode: null })).toEqual({
      ok: false,
      type: 'SET_CONTEXT',
      entries: ['context: must be a string, not an array', 'mode: must be one of append, overwrite'],
    });
  });
});

describe('TOKEN_REFRESH', () => {
  it('accepts a token, trimmed', () => {
    expect(validateEmrToWidgetMessage({ type: 'TOKEN_REFRESH', token: 'header.payload.signature\n' })).toEqual({
      ok: true,
      message: { type: 'TOKEN_REFRESH', token: 'header.payload.signature' },
    });
  });

  it('refuses a missing, empty or non-string token', () => {
    const cases: [unknown, string][] = [
      [undefined, 'token: is required'],
      ['', 'token: must not be empty'],
      ['  ', 'token: must not be empty'],
      [123, 'token: must be a string, not a number'],
    ];
    for (const [token, entry] of cases) {
      expect(validateEmrToWidgetMessage({ type: 'TOKEN_REFRESH', token })).toEqual({
        ok: false,
        type: 'TOKEN_REFRESH',
        entries: [entry],
      });
    }
  });
});

describe('CLOSE_WIDGET', () => {
  it('needs nothing but its type, and drops anything else', () => {
    expect(validateEmrToWidgetMessage({ type: 'CLOSE_WIDGET', reason: 'navigated' })).toEqual({
      ok: true,
      message: { type: 'CLOSE_WIDGET' },
    });
  });
});

describe('payloads without a usable type', () => {
  it.each([
    [null, 'message: must be an object, not null'],
    [undefined, 'message: is required'],
    [[], 'message: must be an object, not an array'],
    [[{ type: 'CLOSE_WIDGET' }], 'message: must be an object, not an array'],
    ['PATIENT_CONTEXT', 'message: must be an object, not a string'],
    ['{"type":"CLOSE_WIDGET"}', 'message: must be an object, not a string'],
    [42, 'message: must be an object, not a number'],
    [true, 'message: must be an object, not a boolean'],
    [{}, 'type: is required'],
    [{ type: 7 }, 'type: must be a string, not a number'],
    [{ type: null }, 'type: must be a string, not null'],
  ])('reports %j without throwing', (input, entry) => {
    expect(validateEmrToWidgetMessage(input)).toEqual({ ok: false, type: null, entries: [entry] });
  });

  it.each(['FOO', '', 'patient_context', 'WIDGET_READY', 'constructor', '__proto__', 'toString'])(
    'reports the unknown type %j and lists the known ones',
    (type) => {
      expect(validateEmrToWidgetMessage({ type })).toEqual({
        ok: false,
        type,
        entries: [
          `type: unknown message type ${JSON.stringify(type)}, expected one of PATIENT_CONTEXT, SET_CONTEXT, TOKEN_REFRESH, CLOSE_WIDGET`,
        ],
      });
    },
  );

  it('shortens a very long unknown type in the entry', () => {
    const result = validateEmrToWidgetMessage({ type: 'X'.repeat(10_000) });
    expect(result.ok ? '' : result.entries[0]).toBe(
      `type: unknown message type "${'X'.repeat(64)}…", expected one of PATIENT_CONTEXT, SET_CONTEXT, TOKEN_REFRESH, CLOSE_WIDGET`,
    );
  });

  it('answers even when reading the payload throws', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(validateEmrToWidgetMessage(hostile)).toEqual({
      ok: false,
      type: null,
      entries: ['message: could not be read'],
    });
  });
});
