import { z } from 'zod';

import type { EndpointSpec } from './endpoint-spec.js';
import { healthSchema } from './health.js';

const HTML_PAGE = { schema: z.string(), contentType: 'text/html' } as const;

/** A service running without the app's build answers its page with one saying how to build it. */
const UNBUILT_APP_PAGE = {
  status: 503,
  description: 'Or, as HTML, when this server runs without the app’s build: how an operator builds it.',
  body: HTML_PAGE,
} as const;

/** The other files of an app's build besides its scripts, each with its type (server http/app-build.ts). */
const OTHER_ASSETS = (
  [
    ['a stylesheet (.css)', 'text/css', z.string()],
    ['a source map (.map)', 'application/json', z.record(z.string(), z.unknown())],
    ['an SVG image (.svg)', 'image/svg+xml', z.string()],
    ['a font (.woff2)', 'font/woff2', z.string()],
  ] as const
).map(([file, contentType, schema]) => ({ status: 200, description: `Or ${file}.`, body: { schema, contentType } }));

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
    otherResponses: [
      {
        status: 401,
        description: 'A page saying the link is not valid (no token, or a forged one), framable by no one.',
        body: HTML_PAGE,
      },
      UNBUILT_APP_PAGE,
    ],
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
    otherResponses: OTHER_ASSETS,
  },
  {
    method: 'GET',
    path: '/console',
    operationId: 'consolePage',
    summary: 'The console: API keys, partners, members, usage and the audit log (its pages are `#/…` fragments)',
    tag: 'Console',
    auth: 'none',
    success: {
      status: 200,
      description: 'HTML, framable by no one (CSP frame-ancestors none).',
      schema: z.string(),
      contentType: 'text/html',
    },
    errors: [],
    otherResponses: [UNBUILT_APP_PAGE],
  },
  {
    method: 'GET',
    path: '/console/assets/{file}',
    operationId: 'consoleAsset',
    summary: 'A file of the console app (script, style), named by its content hash',
    tag: 'Console',
    auth: 'none',
    success: {
      status: 200,
      description: 'The file, cacheable for a year: a new build gives new names.',
      schema: z.string(),
      contentType: 'text/javascript',
    },
    errors: ['route_not_found'],
    otherResponses: OTHER_ASSETS,
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
    success: { status: 200, description: 'Ready to serve.', schema: healthSchema },
    errors: ['service_unavailable'],
    otherResponses: [
      {
        status: 503,
        description: 'Or the readiness report of an instance not ready, naming the failing check.',
        body: { schema: healthSchema },
      },
    ],
  },
  {
    method: 'GET',
    path: '/readyz/realtime',
    operationId: 'realtimeReadiness',
    summary: 'Readiness for new realtime sessions: ready, a recognizer, and room for one more stream',
    tag: 'Operations',
    auth: 'none',
    success: {
      status: 200,
      description:
        'Ready for a new realtime session: for a load balancer’s realtime backend. Answers 503 while the instance ' +
        'is not ready (as `/readyz`), has no working recognizer, or would refuse a new socket with `at_capacity` ' +
        '(its session cap reached, or its recognizer’s measured capacity); sessions already open carry on.',
      schema: healthSchema,
    },
    errors: ['service_unavailable'],
    otherResponses: [
      {
        status: 503,
        description:
          'Or the report of an instance that would refuse a new session, naming the failing check (`capacity` when it is full).',
        body: { schema: healthSchema },
      },
    ],
  },
] as const satisfies readonly EndpointSpec[];
