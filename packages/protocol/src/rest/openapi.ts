import type { z } from 'zod';

import { ERROR_CODES, type ErrorCode } from '../errors.js';
import {
  AUTHENTICATED_ROUTE_ERRORS,
  CONSOLE_SESSION_ROUTE_ERRORS,
  EVERY_ROUTE_ERRORS,
  IDEMPOTENCY_ERRORS,
  MANAGEMENT_ROUTE_ERRORS,
  NO_BODY_ERRORS,
  PARTNER_ROUTE_ERRORS,
  pathParameterNames,
  REALTIME_ROUTE_ERRORS,
  WIDGET_TOKEN_ROUTE_ERRORS,
  type EndpointSpec,
} from './endpoint-spec.js';
import { REST_ENDPOINTS } from './endpoints.js';
import { OPENAPI_WEBHOOKS } from './openapi-webhooks.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENT_REPLAYED_HEADER } from './idempotency.js';
import { COMPONENT_PREFIX, schemaRef, settleComponents } from './openapi-components.js';

type JsonObject = Record<string, unknown>;

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
  const idempotency = spec.idempotent === true ? IDEMPOTENCY_ERRORS : [];
  const body = spec.requestBody === undefined ? NO_BODY_ERRORS : [];
  const codes: ErrorCode[] = [
    ...new Set([...spec.errors, ...idempotency, ...body, ...SHARED_ERRORS[spec.auth], ...EVERY_ROUTE_ERRORS]),
  ];
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

const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'A key of your choosing (a UUID) that makes a retry safe: the first answer to it is kept for 24 hours and given again, with `Idempotent-Replayed: true`, to a request with the same key and body.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[\\x20-\\x7e]+$' },
};

const REPLAYED_HEADER = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: '`true` when this is the kept answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * Every `{name}` segment of the path, a required string; then the query parameters, each optional;
 * then the Idempotency-Key of an operation that takes one.
 */
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
  const all = [...inPath, ...inQuery, ...(spec.idempotent === true ? [IDEMPOTENCY_KEY_PARAMETER] : [])];
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
  return {
    description,
    ...(spec.idempotent === true ? { headers: REPLAYED_HEADER } : {}),
    content: { [contentType ?? 'application/json']: { schema: schemaRef(schema, 'output') } },
  };
}

/** The 202 an operation may answer instead (an asynchronous note), with where to follow it. */
function acceptedResponse(spec: EndpointSpec): Record<string, JsonObject> {
  if (spec.accepted === undefined) return {};
  const { description, schema } = spec.accepted;
  return {
    '202': {
      description,
      headers: { Location: { description: 'Where to read it as it progresses.', schema: { type: 'string' } } },
      content: { 'application/json': { schema: schemaRef(schema, 'output') } },
    },
  };
}

/**
 * Adds the operation's other answers to `responses`; one sharing a status with an error (a page's
 * HTML 503 beside the draining JSON one) adds its content type, or its schema as an alternative.
 */
function withOtherResponses(spec: EndpointSpec, responses: JsonObject): JsonObject {
  for (const other of spec.otherResponses ?? []) {
    const existing = responses[String(other.status)] as JsonObject | undefined;
    const content: Record<string, { schema: JsonObject }> = { ...(existing?.['content'] as object | undefined) };
    if (other.body !== undefined) {
      const type = other.body.contentType ?? 'application/json';
      const schema = schemaRef(other.body.schema, 'output');
      const alongside = content[type]?.schema;
      content[type] = { schema: alongside === undefined ? schema : { anyOf: [alongside, schema] } };
    }
    const description =
      existing === undefined ? other.description : `${String(existing['description'])} ${other.description}`;
    responses[String(other.status)] = { description, ...(Object.keys(content).length > 0 ? { content } : {}) };
  }
  return responses;
}

function operation(spec: EndpointSpec): JsonObject {
  const op: JsonObject = {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    security: SECURITY[spec.auth],
    ...parameters(spec),
    responses: withOtherResponses(spec, {
      [String(spec.success.status)]: successResponse(spec),
      ...acceptedResponse(spec),
      ...errorResponses(spec),
    }),
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

const DESCRIPTION = [
  'Clinical documentation: templates, note generation and realtime transcription.',
  'Beside each operation’s answers, any request may be refused before a route is chosen, in the REST error body with `Connection: close`: 400 `bad_request` (a request Node’s HTTP parser cannot read), 408 `request_timeout`, 431 `headers_too_large`. HEAD answers as GET, without the body.',
].join('\n\n');

/** Builds the OpenAPI 3.1 document of every endpoint from the same schemas the server validates with. */
export function buildOpenApiDocument(info: OpenApiInfo): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const spec of REST_ENDPOINTS) {
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operation(spec) };
  }
  const settled = settleComponents({ paths, webhooks: OPENAPI_WEBHOOKS });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Chartwright API',
      version: info.version,
      description: DESCRIPTION,
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
    },
    servers: info.servers.map((server) => ({ ...server })),
    paths: settled.operations.paths,
    webhooks: settled.operations.webhooks,
    components: {
      schemas: settled.schemas,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
