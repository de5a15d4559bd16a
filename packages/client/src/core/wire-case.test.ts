import { describe, expect, it } from 'vitest';

import { fromWireKeys, toWireKeys } from './wire-case.js';

describe('wire case', () => {
  it('renames top-level keys both ways and leaves nested objects alone', () => {
    const library = {
      templateId: 'soap',
      conversationText: 'Doctor: hi',
      extraContext: 'x',
      patient: { firstName: 'Ann' },
    };
    const wire = toWireKeys(library);
    expect(wire).toEqual({
      template_id: 'soap',
      conversation_text: 'Doctor: hi',
      extra_context: 'x',
      patient: { firstName: 'Ann' },
    });
    expect(fromWireKeys({ input_sha256: 'abc', created_at: 't', template_version: 2 })).toEqual({
      inputSha256: 'abc',
      createdAt: 't',
      templateVersion: 2,
    });
    expect(fromWireKeys(wire)).toEqual(library);
  });
});
