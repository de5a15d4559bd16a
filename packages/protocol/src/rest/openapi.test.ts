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
      const parameters = operationOf(spec)?.parameters;
      if (names.length === 0) expect(parameters, spec.operationId).toBeUndefined();
      else
        expect(parameters, spec.operationId).toEqual(
          names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        );
    }
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
