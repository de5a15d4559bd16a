import { z } from 'zod';

import type { ErrorCode } from '../errors.js';
import { healthSchema } from './health.js';
import { createRealtimeTokenRequestSchema, realtimeTokenSchema } from './realtime-tokens.js';
import { templateListSchema } from './templates.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointSpec {
  readonly method: HttpMethod;
  /** OpenAPI path syntax: `/api/v1/notes/{id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: 'Templates' | 'Realtime' | 'Operations';
  readonly auth: 'api_key' | 'none';
  readonly requestBody?: { readonly schema: z.ZodType; readonly required: boolean };
  readonly success: { readonly status: number; readonly description: string; readonly schema: z.ZodType };
  /** Error codes this route can answer with beyond the ones every authenticated route shares. */
  readonly errors: readonly ErrorCode[];
}

/** Errors any authenticated route may return. */
export const AUTHENTICATED_ROUTE_ERRORS: readonly ErrorCode[] = [
  'missing_authorization',
  'malformed_authorization',
  'invalid_api_key',
  'api_key_revoked',
  'api_key_expired',
  'realtime_token_expired',
  'temporary_token_not_allowed',
  'rate_limited',
  'internal_error',
];

/** Every HTTP route the service serves, described once for the server and the OpenAPI document. */
export const REST_ENDPOINTS = [
  {
    method: 'GET',
    path: '/api/v1/templates',
    operationId: 'listTemplates',
    summary: 'List the note templates',
    tag: 'Templates',
    auth: 'api_key',
    success: { status: 200, description: 'Every template, curated ones first.', schema: templateListSchema },
    errors: [],
  },
  {
    method: 'POST',
    path: '/api/v1/realtime/tokens',
    operationId: 'createRealtimeToken',
    summary: 'Mint a temporary realtime token (sk_ keys only)',
    tag: 'Realtime',
    auth: 'api_key',
    requestBody: { schema: createRealtimeTokenRequestSchema, required: false },
    success: { status: 201, description: 'The token, shown once.', schema: realtimeTokenSchema },
    errors: ['invalid_json', 'invalid_body', 'unsupported_media_type', 'request_too_large'],
  },
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This OpenAPI 3.1 document',
    tag: 'Operations',
    auth: 'none',
    success: {
      status: 200,
      description: 'The OpenAPI document, generated from the same schemas the server validates with.',
      schema: z.record(z.string(), z.unknown()),
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'liveness',
    summary: 'Liveness: the process is serving',
    tag: 'Operations',
    auth: 'none',
    success: { status: 200, description: 'The process is alive.', schema: healthSchema },
    errors: [],
  },
  {
    method: 'GET',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'Readiness: the database (and Redis when configured) answer',
    tag: 'Operations',
    auth: 'none',
    success: { status: 200, description: 'Ready to serve; 503 with the same shape when not.', schema: healthSchema },
    errors: ['service_unavailable'],
  },
] as const satisfies readonly EndpointSpec[];

export type EndpointId = (typeof REST_ENDPOINTS)[number]['operationId'];

export function endpoint(operationId: EndpointId): EndpointSpec {
  const found = REST_ENDPOINTS.find((candidate) => candidate.operationId === operationId);
  if (found === undefined) throw new Error(`unknown endpoint ${operationId}`);
  return found;
}
