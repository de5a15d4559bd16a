import { z } from 'zod';

import { ERROR_CODES, type ErrorCode } from '../errors.js';
import {
  AUTHENTICATED_ROUTE_ERRORS,
  CONSOLE_SESSION_ROUTE_ERRORS,
  MANAGEMENT_ROUTE_ERRORS,
  PARTNER_ROUTE_ERRORS,
  pathParameterNames,
  REALTIME_ROUTE_ERRORS,
  WIDGET_TOKEN_ROUTE_ERRORS,
  type EndpointSpec,
} from './endpoint-spec.js';
import { REST_ENDPOINTS } from './endpoints.js';
import { componentRegistry } from './registry.js';

type JsonObject = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

function schemaRef(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const id = componentRegistry.get(schema)?.id;
  if (id !== undefined && io === 'output') return { $ref: `${COMPONENT_PREFIX}${id}` };
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonObject;
  return json;
}

const SHARED_ERRORS: Record<EndpointSpec['auth'], readonly ErrorCode[]> = {
  api_key: AUTHENTICATED_ROUTE_ERRORS,
  partner_key: PARTNER_ROUTE_ERRORS,
  widget_token: WIDGET_TOKEN_ROUTE_ERRORS,
  realtime: REALTIME_ROUTE_ERRORS,
  console: MANAGEMENT_ROUTE_ERRORS,
  console_session: CONSOLE_SESSION_ROUTE_ERRORS,
  none: [],
};

const SECURITY: Record<EndpointSpec['auth'], JsonObject[]> = {
  api_key: [{ bearerAuth: [] }],
  partner_key: [{ partnerKey: [] }],
  widget_token: [{ widgetToken: [] }],
  realtime: [{ bearerAuth: [] }, { realtimeSubprotocol: [] }],
  console: [{ consoleSession: [] }, { adminToken: [] }],
  console_session: [{ consoleSession: [] }],
  none: [],
};

function errorResponses(spec: EndpointSpec): JsonObject {
  const codes: ErrorCode[] = [...new Set([...spec.errors, ...SHARED_ERRORS[spec.auth]])];
  const errorSchema = spec.errorEnvelope === 'widget' ? 'WidgetError' : 'Error';
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: JsonObject = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error codes: ${statusCodes.join(', ')}.`,
      content: { 'application/json': { schema: { $ref: `${COMPONENT_PREFIX}${errorSchema}` } } },
    };
  }
  return responses;
}

/** Every `{name}` segment of the path, a required string; then the query parameters, each optional. */
function parameters(spec: EndpointSpec): JsonObject {
  const inPath = pathParameterNames(spec.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const shape: Record<string, z.ZodType> = spec.query?.schema.shape ?? {};
  const inQuery = Object.entries(shape).map(([name, schema]) => {
    const { description, ...json } = schemaRef(schema, 'input');
    return { name, in: 'query', required: false, ...(description === undefined ? {} : { description }), schema: json };
  });
  const all = [...inPath, ...inQuery];
  return all.length === 0 ? {} : { parameters: all };
}

/** 204 has no body to describe; a redirect (the single sign-on callback's 303) has its Location. */
function successResponse(spec: EndpointSpec): JsonObject {
  const { status, description, contentType, schema } = spec.success;
  if (status === 204) return { description };
  if (status >= 300 && status < 400) {
    return {
      description,
      headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } } },
    };
  }
  return { description, content: { [contentType ?? 'application/json']: { schema: schemaRef(schema, 'output') } } };
}

function operation(spec: EndpointSpec): JsonObject {
  const op: JsonObject = {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    security: SECURITY[spec.auth],
    ...parameters(spec),
    responses: {
      [String(spec.success.status)]: successResponse(spec),
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

export interface OpenApiInfo {
  version: string;
  servers: readonly { url: string; description: string }[];
}

/** How each kind of credential is presented, named by the operations' `security`. */
const SECURITY_SCHEMES: JsonObject = {
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
  realtimeSubprotocol: {
    type: 'apiKey',
    in: 'header',
    name: 'Sec-WebSocket-Protocol',
    description:
      'Browsers offer `chartwright.realtime.v1` and `auth.<credential>` (an sk_ key or a svc_rt_ token); the server selects `chartwright.realtime.v1`. Only on the realtime WebSocket.',
  },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'cw_console',
    description:
      'The console’s session cookie (`__Host-cw_console` behind HTTPS), set by signing in; POST, PATCH and DELETE also need the session’s CSRF token in X-CSRF-Token.',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An organisation admin token (cw_admin_…) for automation. sk_ keys and svc_rt_ tokens are refused.',
  },
  widgetToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The widget session token the iframe received in its `token` parameter.',
  },
};

/** Builds the OpenAPI 3.1 document of every endpoint from the same schemas the server validates with. */
export function buildOpenApiDocument(info: OpenApiInfo): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const spec of REST_ENDPOINTS) {
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operation(spec) };
  }
  const { schemas } = z.toJSONSchema(componentRegistry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
  });
  const components: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Components are embedded in the document, so they carry neither a dialect nor an identity of their own.
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonObject;
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
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
