import {
  endpoint,
  setPatientContextRequestSchema,
  validate,
  widgetRealtimeTokenRequestSchema,
} from '@chartwright/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { credentialFromAuthorization } from '../../auth/authenticator.js';
import { AppError } from '../../errors.js';
import type { EncounterService } from '../../encounters/encounter-service.js';
import type { WidgetSession, WidgetSessionService } from '../../partners/widget-sessions.js';
import { bodyOf } from '../json-body.js';
import { fastifyPath } from '../paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the widget token guard on the widget session API. */
    widget: WidgetSession | null;
  }
}

/** The widget principal of a request behind the widget token guard. */
export function widgetOf(request: FastifyRequest): WidgetSession {
  if (request.widget === null) throw new Error('route is not behind the widget token guard');
  return request.widget;
}

/** The API the iframe calls with its widget token as `Authorization: Bearer <JWT>`. */
export function widgetSessionRoutes(
  app: FastifyInstance,
  sessions: WidgetSessionService,
  encounters: EncounterService,
): void {
  app.decorateRequest('widget', null);
  app.addHook('onRequest', async (request) => {
    request.widget = await sessions.authenticate(
      credentialFromAuthorization(request.headers.authorization, 'widget token'),
    );
  });

  app.get(fastifyPath(endpoint('getWidgetSession')), (request) => sessions.info(widgetOf(request)));

  app.post(fastifyPath(endpoint('openWidgetEncounter')), (request) => encounters.open(widgetOf(request)));

  app.put<{ Params: { sessionId: string } }>(fastifyPath(endpoint('setWidgetPatientContext')), async (request) => {
    const parsed = validate(setPatientContextRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    return encounters.setPatientContext(widgetOf(request), request.params.sessionId, parsed.value);
  });

  const realtimeTokens = endpoint('createWidgetRealtimeToken');
  app.post(fastifyPath(realtimeTokens), async (request, reply) => {
    const parsed = validate(widgetRealtimeTokenRequestSchema, bodyOf(request));
    if (!parsed.ok) throw AppError.invalidBody(parsed.details);
    const { sessionId, expiresInSeconds } = parsed.value;
    const token = await encounters.mintRealtimeToken(widgetOf(request), {
      encounterId: sessionId,
      ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
    });
    return reply.code(realtimeTokens.success.status).header('cache-control', 'no-store').send(token);
  });
}
