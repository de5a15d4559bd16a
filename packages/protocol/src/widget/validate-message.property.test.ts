import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { EMR_TO_WIDGET_MESSAGE_TYPES } from './emr-messages.js';
import {
  validateEmrToWidgetMessage,
  validateWidgetToEmrMessage,
  type WidgetMessageValidation,
} from './validate-message.js';
import { WIDGET_TO_EMR_MESSAGE_TYPES } from './widget-messages.js';

type Validator = (input: unknown) => WidgetMessageValidation<unknown>;

const validators: [string, Validator, readonly string[]][] = [
  ['validateEmrToWidgetMessage', validateEmrToWidgetMessage, EMR_TO_WIDGET_MESSAGE_TYPES],
  ['validateWidgetToEmrMessage', validateWidgetToEmrMessage, WIDGET_TO_EMR_MESSAGE_TYPES],
];

// Anything at all, plus values near the schemas' edges.
const edgy = fc.oneof(
  fc.anything(),
  fc.string(),
  fc.constantFrom('', ' ', 'x', 'Female', 'HIGH', 'replace', 'Letter', 'a@b', '1st', 'plan-b'),
  fc.double(),
  fc.constantFrom(-1, 0, 15, Number.NaN),
);
/** Mostly a valid value, sometimes anything: random messages are then valid often enough to matter. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 9 }, { arbitrary: edgy, weight: 1 });
const text = fc.string({ minLength: 1 }).filter((value) => value.trim() !== '');
const optional = <T extends Record<string, unknown>>(shape: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
  fc.record(shape, { requiredKeys: [] });

const section = fc.record({
  key: mostly(fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,70}$/)),
  label: mostly(fc.constantFrom('Plan', ' History ', 'Assessment & plan')),
});
const patient = fc.record(
  {
    id: mostly(text),
    name: mostly(fc.constantFrom('Alex Example', ' Doe, Jane ', 'Dr. Maria de la Cruz Jr.', 'Cher')),
    firstName: mostly(fc.string()),
    gender: mostly(fc.constantFrom(' Female ', 'male', 'OTHER', 'unknown')),
    email: mostly(fc.constantFrom('', 'alex@example.test')),
  },
  { requiredKeys: ['id', 'name'] },
);
const fields = {
  patient: mostly(patient),
  patientContext: mostly(
    optional({
      allergies: fc.array(fc.record({ name: mostly(text), severity: mostly(fc.constantFrom(' Mild', 'SEVERE')) }), {
        maxLength: 3,
      }),
      customData: mostly(fc.dictionary(fc.string(), fc.anything())),
    }),
  ),
  appointment: mostly(optional({ duration: mostly(fc.nat()), reason: mostly(fc.string()) })),
  noteConfig: mostly(fc.record({ sections: mostly(fc.array(section, { minLength: 1, maxLength: 22 })) })),
  freeTextContext: mostly(fc.string()),
  mode: mostly(fc.constantFrom('append', 'overwrite')),
  token: mostly(text),
  version: mostly(fc.string()),
  sessionId: mostly(text),
  patientId: mostly(text),
  note: mostly(fc.string()),
  sections: mostly(fc.dictionary(fc.string(), mostly(fc.string()))),
  title: mostly(fc.string()),
  content: mostly(fc.string()),
  documentType: mostly(fc.constantFrom('letter', 'referral', 'form', 'pdf')),
  expiresInMs: mostly(fc.nat()),
  code: mostly(text),
  message: mostly(fc.string()),
  extra: fc.anything(),
};
// PATIENT_CONTEXT.context is an object while SET_CONTEXT.context is a string: draw one or the other.
const randomFields = fc
  .tuple(optional(fields), fc.boolean())
  .map(([{ patientContext, freeTextContext, ...rest }, structured]) => {
    const context: unknown = structured ? patientContext : freeTextContext;
    return context === undefined ? rest : { ...rest, context };
  });

function messagesOf(types: readonly string[]) {
  return fc.tuple(fc.constantFrom(...types), randomFields).map(([type, rest]) => ({ ...rest, type }));
}

const ENTRY = /^[^:]*: .+/;

function checkResult(validator: Validator, result: WidgetMessageValidation<unknown>): void {
  if (result.ok) {
    // A normalized message is a fixed point: validating it again changes nothing.
    expect(validator(result.message)).toEqual({ ok: true, message: result.message });
  } else {
    expect(result.entries.length).toBeGreaterThan(0);
    for (const entry of result.entries) {
      expect(typeof entry).toBe('string');
      expect(entry).toMatch(ENTRY);
    }
  }
}

describe.each(validators)('%s', (_name, validator, types) => {
  it('never throws on anything, and answers in the documented shape', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true, withDate: true }), (input) => {
        checkResult(validator, validator(input));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on messages of every known type with random fields', () => {
    fc.assert(
      fc.property(messagesOf(types), (input) => {
        checkResult(validator, validator(input));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts random messages of every type now and then, so the property above is not vacuous', () => {
    const accepted = new Set<string>();
    fc.assert(
      fc.property(messagesOf(types), (input) => {
        if (validator(input).ok) accepted.add(input.type);
      }),
      { numRuns: 3000 },
    );
    expect([...accepted].sort()).toEqual([...types].sort());
  });
});

describe('PATIENT_CONTEXT normalization', () => {
  const patientContexts = fc.record(
    {
      type: fc.constant('PATIENT_CONTEXT'),
      patient,
      context: fields.patientContext,
      appointment: fields.appointment,
      noteConfig: fields.noteConfig,
    },
    { requiredKeys: ['type', 'patient'] },
  );

  it('is a fixed point, and always yields both name parts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(patientContexts, (input) => {
        const result = validateEmrToWidgetMessage(input);
        checkResult(validateEmrToWidgetMessage, result);
        if (!result.ok || result.message.type !== 'PATIENT_CONTEXT') return;
        accepted++;
        expect(typeof result.message.patient.firstName).toBe('string');
        expect(typeof result.message.patient.lastName).toBe('string');
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
