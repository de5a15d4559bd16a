import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';
import {
  AUTHENTICATED_ROUTE_ERRORS,
  PARTNER_ROUTE_ERRORS,
  REST_ENDPOINTS,
  WIDGET_TOKEN_ROUTE_ERRORS,
} from './endpoints.js';
import { componentRegistry } from './registry.js';
const COMPONENT_PREFIX = '#/components/schemas/';
function schemaRef(schema, io) {
  const id = componentRegistry.get(schema)?.id;
  if (id !== undefined && io === 'output') return { $ref: `${COMPONENT_PREFIX}${id}` };
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return json;
}
const SHARED_ERRORS = {
  api_key: AUTHENTICATED_ROUTE_ERRORS,
  partner_key: PARTNER_ROUTE_ERRORS,
  widget_token: WIDGET_TOKEN_ROUTE_ERRORS,
  none: [],
};
const SECURITY = {
  api_key: [{ bearerAuth: [] }],
  partner_key: [{ partnerKey: [] }],
  widget_token: [{ widgetToken: [] }],
  none: [],
};
function errorResponses(spec) {
  const codes = [...new Set([...spec.errors, ...SHARED_ERRORS[spec.auth]])];
  // Routes under /api/widget answer with the widget envelope the interface gives the token endpoint.
  const errorSchema = spec.path.startsWith('/api/widget/') ? 'WidgetError' : 'Error';
  const byStatus = new Map();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error codes: ${statusCodes.join(', ')}.`,
      content: { 'application/json': { schema: { $ref: `${COMPONENT_PREFIX}${errorSchema}` } } },
    };
  }
  return responses;
}
function operation(spec) {
  const op = {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    security: SECURITY[spec.auth],
    responses: {
      [String(spec.success.status)]: {
        description: spec.success.description,
        content: {
          [spec.success.contentType ?? 'application/json']: { schema: schemaRef(spec.success.schema, 'output') },
        },
      },
      ...errorResponses(spec),
    },
  };
  if (spec.requestBody !== undefined) {
    op['requestBody'] = {
      required: spec.requestBody.required,
      content: { 'application/json': { schema: schemaRef(spec.requestBody.schema, 'input') } },
    };
  }
  return op;
}
/** Builds the OpenAPI 3.1 document of every endpoint from the same schemas the server validates with. */
export function buildOpenApiDocument(info) {
  const paths = {};
  for (const spec of REST_ENDPOINTS) {
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operation(spec) };
  }
  const { schemas } = z.toJSONSchema(componentRegistry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
  });
  const components = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Components are embedded in the document, so they carry neither a dialect nor an identity of their own.
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    components[id] = rest;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Chartwright API',
      version: info.version,
      description: 'Clinical documentation: templates, note generation and realtime transcription.',
    },
    servers: info.servers.map((server) => ({ ...server })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A permanent key (sk_test_… or sk_live_…). Temporary svc_rt_ tokens are refused here.',
        },
        partnerKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Partner-Key',
          description: '`<PARTNER_ID>.<PARTNER_SECRET>`, from the partner’s backend only.',
        },
        widgetToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The widget session token the iframe received in its `token` parameter.',
        },
      },
    },
  };
}
//# sourceMappingURL=openapi.js.map
