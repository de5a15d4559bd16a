import { describe, expect, it } from 'vitest';

import { pathParameterNames } from './endpoint-spec.js';
import { REST_ENDPOINTS } from './endpoints.js';
import { buildOpenApiDocument } from './openapi.js';

interface Operation {
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
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

  it('documents the note fields of issue 14: style, include and segments in, review fields out', () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, { properties?: object }> } })
      .components.schemas;
    const create = document.paths['/api/v1/notes']?.['post'] as unknown as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
    };
    const body = create.requestBody.content['application/json'].schema.properties;
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
      const expected = spec.path.startsWith('/api/widget/') ? 'WidgetError' : 'Error';
      for (const [, response] of errors) {
        expect(response.content?.['application/json']?.schema, spec.operationId).toEqual({
          $ref: `#/components/schemas/${expected}`,
        });
      }
    }
  });
});
