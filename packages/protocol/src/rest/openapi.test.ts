import { describe, expect, it } from 'vitest';

import { pathParameterNames } from './endpoint-spec.js';
import { REST_ENDPOINTS } from './endpoints.js';
import { buildOpenApiDocument } from './openapi.js';

interface Operation {
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

const document = buildOpenApiDocument({ version: 'test', servers: [] }) as {
  paths: Record<string, Record<string, Operation>>;
};
const operationOf = (spec: (typeof REST_ENDPOINTS)[number]) => document.paths[spec.path]?.[spec.method.toLowerCase()];

describe('the OpenAPI document', () => {
  it('reads path parameters in order', () => {
    expect(pathParameterNames('/api/widget/encounters/{sessionId}/notes/{noteId}')).toEqual(['sessionId', 'noteId']);
    expect(pathParameterNames('/api/v1/templates')).toEqual([]);
  });

  it('lists every path parameter of every operation as a required string, and none elsewhere', () => {
    for (const spec of REST_ENDPOINTS) {
      const names = pathParameterNames(spec.path);
      const parameters = operationOf(spec)?.parameters?.filter((parameter) => parameter.in === 'path');
      if (names.length === 0) expect(parameters ?? [], spec.operationId).toEqual([]);
      else
        expect(parameters, spec.operationId).toEqual(
          names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        );
    }
  });

  it('lists the query parameters an operation declares, each optional', () => {
    for (const spec of REST_ENDPOINTS) {
      const inQuery = (operationOf(spec)?.parameters ?? []).filter((parameter) => parameter.in === 'query');
      expect(
        inQuery.map((parameter) => parameter.name),
        spec.operationId,
      ).toEqual(Object.keys(('query' in spec ? spec.query.schema.shape : undefined) ?? {}));
      for (const parameter of inQuery) expect(parameter.required).toBe(false);
    }
    const retrieve = document.paths['/api/v1/notes/{id}']?.['get'];
    expect(retrieve?.parameters?.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual([
      'path:id',
      'query:include',
    ]);
  });

  it('gives every create the Idempotency-Key header, the replay header and the 409s, and no other operation', () => {
    const creates: string[] = REST_ENDPOINTS.filter((spec) => 'idempotent' in spec).map((spec) => spec.operationId);
    expect(creates).toEqual(expect.arrayContaining(['createNote', 'generateWidgetNote', 'createApiKey']));
    for (const spec of REST_ENDPOINTS) {
      const operation = operationOf(spec);
      const header = operation?.parameters?.find((parameter) => parameter.in === 'header');
      const conflicts = operation?.responses['409']?.description ?? '';
      const success = operation?.responses[String(spec.success.status)] as { headers?: object } | undefined;
      if (creates.includes(spec.operationId)) {
        expect(header, spec.operationId).toMatchObject({ name: 'Idempotency-Key', required: false });
        expect(conflicts, spec.operationId).toContain('idempotency_key_reused');
        expect(conflicts, spec.operationId).toContain('idempotency_key_in_use');
        expect(operation?.responses['400']?.description, spec.operationId).toContain('invalid_idempotency_key');
        expect(success?.headers, spec.operationId).toHaveProperty('Idempotent-Replayed');
      } else {
        expect(header, spec.operationId).toBeUndefined();
        expect(conflicts, spec.operationId).not.toContain('idempotency_key');
      }
    }
  });

  it('documents the note fields of issue 14: style, include and segments in, review fields out', () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, { properties?: object }> } })
      .components.schemas;
    const create = document.paths['/api/v1/notes']?.['post'] as unknown as {
      requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
    };
    expect(create.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateNoteRequest',
    });
    const body = (schemas['CreateNoteRequest'] as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['style', 'include', 'segments', 'conversation_text']));
    for (const field of ['style', 'flags', 'omissions', 'warnings', 'verification', 'facts']) {
      expect(Object.keys(schemas['Note']?.properties ?? {})).toContain(field);
    }
    for (const field of ['style', 'flags', 'omissions', 'warnings', 'verification']) {
      expect(Object.keys(schemas['WidgetNote']?.properties ?? {})).toContain(field);
    }
    expect(Object.keys(schemas['NoteSentence']?.properties ?? {})).toEqual(
      expect.arrayContaining(['support', 'facts']),
    );
    for (const id of ['Fact', 'ReviewFlag', 'Omission', 'NoteWarning', 'NoteVerification', 'NoteSegment']) {
      expect(schemas[id], id).toBeDefined();
    }
  });

  it('documents the transcript of issue 15: display text, labels and corrections out, the correction routes in', () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, { properties?: object }> } })
      .components.schemas;
    const session = schemas['RealtimeSession']?.properties as {
      segments: { items: { properties: object; required: string[] } };
    };
    expect(Object.keys(session)).toContain('speakerRoles');
    expect(Object.keys(session.segments.items.properties)).toEqual(
      expect.arrayContaining(['display', 'displayTokens', 'speakerLabel', 'revision', 'original']),
    );
    expect(session.segments.items.required).toEqual(expect.arrayContaining(['display', 'displayTokens']));
    const operations = Object.values(document.paths).flatMap((path) =>
      Object.values(path).map((operation) => (operation as { operationId?: string }).operationId),
    );
    expect(operations).toEqual(expect.arrayContaining(['correctWidgetTranscriptSegment', 'swapWidgetSpeakerRoles']));
    for (const id of ['CorrectTranscriptSegmentRequest', 'SwapSpeakerRolesRequest'])
      expect(schemas[id], id).toBeDefined();
  });

  it('describes the errors of the widget API in the widget envelope, and the rest in the error body', () => {
    for (const spec of REST_ENDPOINTS) {
      const errors = Object.entries(operationOf(spec)?.responses ?? {}).filter(([status]) => Number(status) >= 400);
      const expected = {
        $ref: `#/components/schemas/${spec.path.startsWith('/api/widget/') ? 'WidgetError' : 'Error'}`,
      };
      for (const [status, response] of errors) {
        // A page's own answer (the widget page's 401) is HTML; an error beside another JSON answer is one of its forms.
        if (!response.description.startsWith('Error codes:')) continue;
        const schema = response.content?.['application/json']?.schema as { anyOf?: unknown[] } | undefined;
        expect(schema?.anyOf?.[0] ?? schema, `${spec.operationId} ${status}`).toEqual(expected);
      }
    }
  });

  it('lets every route answer a malformed request, a fault and a shutdown, and one without a body refuse a body', () => {
    for (const spec of REST_ENDPOINTS) {
      const responses = operationOf(spec)?.responses ?? {};
      expect(Object.keys(responses), spec.operationId).toEqual(expect.arrayContaining(['400', '500', '503']));
      const refusesBody = responses['400']?.description.includes('body_not_allowed');
      expect(refusesBody, spec.operationId).toBe(!('requestBody' in spec));
    }
  });

  it('documents the answers besides success and errors: a 304, the pages’ HTML, a failed readiness check', () => {
    const responses = (path: string) => document.paths[path]?.['get']?.responses ?? {};
    expect(responses('/api/v1/templates')['304']).toEqual({ description: expect.stringContaining('If-None-Match') });
    expect(Object.keys(responses('/widget')['401']?.content ?? {})).toEqual(['text/html']);
    expect(Object.keys(responses('/console')['503']?.content ?? {})).toEqual(['application/json', 'text/html']);
    expect(responses('/readyz')['503']?.content?.['application/json']?.schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/Health' }],
    });
    expect(Object.keys(responses('/widget/assets/{file}')['200']?.content ?? {})).toEqual(
      expect.arrayContaining(['text/javascript', 'text/css', 'font/woff2']),
    );
  });

  it('gives a request the input form of its schema, and lists each component it uses once', () => {
    const text = JSON.stringify(document);
    const schemas = (document as unknown as { components: { schemas: Record<string, object> } }).components.schemas;
    const referenced = new Set([...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]));
    expect(Object.keys(schemas).sort()).toEqual([...referenced].sort());
    // Read in a request, unknown fields are dropped; in an answer (the encounter's state) there are none.
    const context = document.paths['/api/widget/encounters/{sessionId}/patient-context']?.['put'] as unknown as {
      requestBody: { content: { 'application/json': { schema: unknown } } };
    };
    expect(context.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SetPatientContextRequestInput',
    });
    expect(schemas['SetPatientContextRequestInput']).not.toHaveProperty('additionalProperties');
    expect(schemas['SetPatientContextRequest']).toHaveProperty('additionalProperties', false);
  });
});
