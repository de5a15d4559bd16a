import {
  endpoint,
  validate,
  type EndpointAuth,
  type EndpointBody,
  type EndpointId,
  type EndpointIdWithAuth,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
  type EndpointSpec,
} from '@chartwright/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { AUDITED_OPERATIONS } from '../audit/audited-operations.js';
import type { OperationAudit } from '../audit/operation-audit.js';
import { AppError } from '../errors.js';
import { idempotencyKeyOf, runIdempotently } from './idempotent-run.js';
import { bodyOf, refuseBody } from './json-body.js';
import { fastifyPath } from './paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the area's guard found the caller to be; routes read it, typed, as their `principal`. */
    principal: unknown;
  }
  interface FastifyInstance {
    /** Records every call of an operation that touches patient data (audit/audited-operations.ts). */
    operationAudit: OperationAudit;
  }
}

/** How an area finds out who calls it: on request, before the body is read. Throws an AppError to refuse. */
export interface Guard<Auth extends EndpointAuth, Principal> {
  readonly auth: Auth;
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal>;
  /**
   * Whose Idempotency-Keys a principal's are (a project environment, a clinician, an organisation):
   * an area without it cannot serve operations that take one.
   */
  readonly idempotencyScope?: (principal: Principal) => string;
}

declare const area: unique symbol;

/** A plugin context whose routes all take one kind of credential, and the principal its guard makes of it. */
export type Area<Auth extends EndpointAuth, Principal> = FastifyInstance & {
  readonly [area]: { auth: Auth; principal: Principal };
};

const AREAS = new WeakMap<FastifyInstance, EndpointAuth>();
const IDEMPOTENCY_SCOPES = new WeakMap<FastifyInstance, (principal: unknown) => string>();

/** Puts every route of the context behind `guard`. */
export function guardedArea<Auth extends EndpointAuth, Principal>(
  app: FastifyInstance,
  guard: Guard<Auth, Principal>,
): Area<Auth, Principal> {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    request.principal = await guard.authenticate(request, reply);
  });
  AREAS.set(app, guard.auth);
  const { idempotencyScope } = guard;
  if (idempotencyScope !== undefined) {
    IDEMPOTENCY_SCOPES.set(app, (principal) => idempotencyScope(principal as Principal));
  }
  return app as Area<Auth, Principal>;
}

/** A context whose routes anyone may call. */
export function openArea(app: FastifyInstance): Area<'none', null> {
  app.decorateRequest('principal', null);
  AREAS.set(app, 'none');
  return app as Area<'none', null>;
}

/** What a route's handler gets: the request as the endpoint table types it, and the guard's principal. */
export interface RouteCall<Id extends EndpointId, Principal> {
  /** Validated with the operation's body schema; undefined for operations that take none. */
  body: EndpointBody<Id>;
  params: EndpointParams<Id>;
  /** Validated with the operation's query schema; the raw query for operations that declare none. */
  query: EndpointQuery<Id>;
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * The body to send with the table's status (bytes for a binary content type, a PDF), or the reply
 * when the handler answered itself (a 304, a static file).
 */
export type RouteResult<Id extends EndpointId> = EndpointResponse<Id> | Buffer | FastifyReply;

/**
 * Serves an operation of the endpoint table (`REST_ENDPOINTS`): its method and path, its body
 * validated with its schema (every problem named in one `invalid_body`), and its success status and
 * content type unless the handler sets its own. An operation whose auth is not the area's is refused
 * here, at startup, so no route can end up behind the wrong guard or none.
 */
export function route<Auth extends EndpointAuth, Principal, Id extends EndpointIdWithAuth<Auth>>(
  app: Area<Auth, Principal>,
  operationId: Id,
  handler: (call: RouteCall<Id, Principal>) => RouteResult<Id> | Promise<RouteResult<Id>>,
): void {
  const spec = endpoint(operationId);
  const auth = AREAS.get(app);
  if (auth !== spec.auth) {
    const context = auth === undefined ? 'a context that is no area' : `an area whose guard is ${auth}`;
    throw new Error(`${operationId} (auth ${spec.auth}) cannot be registered in ${context}`);
  }
  if (AUDITED_OPERATIONS[operationId] !== 'no_phi' && !app.hasDecorator('operationAudit')) {
    throw new Error(`${operationId} touches patient data: it can only be served by an app with an audit log`);
  }
  const scopeOf = spec.idempotent === true ? idempotencyScopeOf(app, operationId) : undefined;
  const path = fastifyPath(spec);
  if (!path.startsWith(app.prefix)) throw new Error(`${operationId} (${spec.path}) is outside ${app.prefix}`);
  app.route({
    method: spec.method,
    url: path.slice(app.prefix.length),
    ...(spec.requestBody === undefined ? { preParsing: refuseBody } : {}),
    handler: async (request, reply) => {
      const idempotencyKey = scopeOf === undefined ? undefined : idempotencyKeyOf(request);
      const { body, query } = validatedInput(spec, request);
      reply.code(spec.success.status);
      if (spec.success.contentType !== undefined) reply.type(spec.success.contentType);
      const params = request.params as EndpointParams<Id>;
      const run = async () =>
        handler({
          body: body as EndpointBody<Id>,
          params,
          query: query as EndpointQuery<Id>,
          principal: request.principal as Principal,
          request,
          reply,
        });
      const result = await request.server.operationAudit.around(
        operationId,
        request,
        reply,
        { params: params as Readonly<Record<string, string>>, body },
        scopeOf === undefined || idempotencyKey === undefined
          ? run
          : () =>
              runIdempotently(
                request,
                reply,
                { scope: scopeOf(request.principal), operation: operationId, key: idempotencyKey, params, body },
                run,
              ),
      );
      // A handler that answered itself returned the reply, which awaiting resolves once it is sent.
      if (reply.sent) return reply;
      return spec.success.status === 204 ? reply.send() : reply.send(result);
    },
  });
}

/** The body and the query, each validated with the operation's schema where it declares one. */
function validatedInput(spec: EndpointSpec, request: FastifyRequest): { body: unknown; query: unknown } {
  let body: unknown;
  const bodySchema = spec.requestBody?.schema;
  if (bodySchema !== undefined) {
    const parsed = validate(bodySchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    body = parsed.value;
  }
  let query: unknown = request.query;
  const querySchema = spec.query?.schema;
  if (querySchema !== undefined) {
    const parsed = validate(querySchema, request.query ?? {});
    if (!parsed.ok) throw AppError.invalidQuery(parsed.details);
    query = parsed.value;
  }
  return { body, query };
}

function idempotencyScopeOf(app: FastifyInstance, operationId: EndpointId): (principal: unknown) => string {
  const scopeOf = IDEMPOTENCY_SCOPES.get(app);
  if (scopeOf === undefined) {
    throw new Error(
      `${operationId} takes an Idempotency-Key: it can only be served in an area whose guard scopes keys`,
    );
  }
  return scopeOf;
}
