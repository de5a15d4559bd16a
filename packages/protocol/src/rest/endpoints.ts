import type { z } from 'zod';

// First, so its schemas register first and the OpenAPI document keeps listing its components in the
// order it always has.
import { PUBLIC_ENDPOINTS } from './public-endpoints.js';
import { API_ENDPOINTS } from './api-endpoints.js';
import type { EndpointAuth, EndpointSpec, PathParameterName } from './endpoint-spec.js';
import { CONSOLE_SESSION_ENDPOINTS } from './console-endpoints.js';
import { MANAGEMENT_ENDPOINTS } from './management-endpoints.js';
import { WEBHOOK_ENDPOINTS } from './webhook-endpoints.js';
import { WIDGET_ENDPOINTS } from './widget-endpoints.js';

/** Every HTTP route the service serves, described once for the server and the OpenAPI document. */
export const REST_ENDPOINTS = [
  ...API_ENDPOINTS,
  ...WEBHOOK_ENDPOINTS,
  ...WIDGET_ENDPOINTS,
  ...CONSOLE_SESSION_ENDPOINTS,
  ...MANAGEMENT_ENDPOINTS,
  ...PUBLIC_ENDPOINTS,
] as const;

type Endpoints = (typeof REST_ENDPOINTS)[number];

export type EndpointId = Endpoints['operationId'];

/** The table entry of one operation, with its literal path, auth and schemas. */
export type Endpoint<Id extends EndpointId> = Extract<Endpoints, { operationId: Id }>;

/** The operations a route behind `auth` may serve. */
export type EndpointIdWithAuth<Auth extends EndpointAuth> = Extract<Endpoints, { auth: Auth }>['operationId'];

/** An operation's path parameters (`{sessionId}` → `sessionId`), as the server reads them. */
export type EndpointParams<Id extends EndpointId> = Readonly<Record<PathParameterName<Endpoint<Id>['path']>, string>>;

/** An operation's validated body; `undefined` for operations that take none. */
export type EndpointBody<Id extends EndpointId> =
  Endpoint<Id> extends { requestBody: { schema: infer Schema extends z.ZodType } } ? z.output<Schema> : undefined;

/** An operation's validated query; the raw query for operations that declare none. */
export type EndpointQuery<Id extends EndpointId> =
  Endpoint<Id> extends { query: { schema: infer Schema extends z.ZodType } }
    ? z.output<Schema>
    : Readonly<Record<string, unknown>>;

/** What an operation answers with on success (or, for one that may answer 202, with that). */
export type EndpointResponse<Id extends EndpointId> =
  | z.output<Endpoint<Id>['success']['schema']>
  | (Endpoint<Id> extends { accepted: { schema: infer Schema extends z.ZodType } } ? z.output<Schema> : never);

export function endpoint(operationId: EndpointId): EndpointSpec {
  const found = REST_ENDPOINTS.find((candidate) => candidate.operationId === operationId);
  if (found === undefined) throw new Error(`unknown endpoint ${operationId}`);
  return found;
}
