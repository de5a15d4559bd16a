import { z } from 'zod';

import type { EndpointSpec } from './endpoint-spec.js';
import { healthSchema } from './health.js';

/** What anyone may fetch: the widget's keys, page and assets, the OpenAPI document and health checks. */
export const PUBLIC_ENDPOINTS = [
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    operationId: 'widgetJwks',
    summary: 'Public keys that verify widget session tokens',
    tag: 'Widget',
    auth: 'none',
    success: {
      status: 200,
      description: 'A JSON Web Key Set; tokens name their key in the `kid` header.',
      schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/widget',
    operationId: 'widgetPage',
    summary: 'The widget page for the iframe (`?token=<widget JWT>`)',
    tag: 'Widget',
    auth: 'none',
    success: {
      status: 200,
      description: 'HTML, framable only by the partner’s allowed origins (CSP frame-ancestors).',
      schema: z.string(),
      contentType: 'text/html',
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/widget/assets/{file}',
    operationId: 'widgetAsset',
    summary: 'A file of the widget app (script, style), named by its content hash',
    tag: 'Widget',
    auth: 'none',
    success: {
      status: 200,
      description: 'The file, cacheable for a year: a new build gives new names.',
      schema: z.string(),
      contentType: 'text/javascript',
    },
    errors: ['route_not_found'],
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
