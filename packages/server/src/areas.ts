import type { FastifyInstance } from 'fastify';

import { apiKeyGuard } from './auth/api-key-guard.js';
import { realtimeTokenRoutes } from './auth/realtime-token-routes.js';
import type { Config } from './config/config.js';
import { consoleGuard, consoleSessionGuard } from './console/console-guard.js';
import { consolePageRoutes } from './console/console-page.js';
import { managementRoutes } from './console/management-routes.js';
import { organisationRoutes } from './console/organisation-routes.js';
import { consoleSessionRoutes, consoleSignInRoutes } from './console/session-routes.js';
import { documentLinkRoutes, documentRoutes } from './encounters/documents/routes.js';
import { encounterRoutes } from './encounters/routes.js';
import { widgetErrorEnvelope } from './http/error-body.js';
import { answerErrorsWith } from './http/error-handler.js';
import { noStoreResponses } from './http/no-store.js';
import { guardedArea, openArea } from './http/route.js';
import { notesRoutes } from './notes/routes.js';
import { apiDocument } from './operations/api-document.js';
import { operationsRoutes } from './operations/routes.js';
import { partnerKeyGuard, widgetTokenGuard } from './partners/guards.js';
import { jwksRoutes, widgetSessionRoutes, widgetTokenRoutes } from './partners/routes.js';
import { widgetPageRoutes } from './partners/widget-page.js';
import { realtimeSessionRoutes } from './realtime/session-routes.js';
import type { AppDependencies, Services } from './services.js';
import { webhookRoutes } from './webhooks/routes.js';

/**
 * The HTTP areas: each a Fastify plugin with its guard, its routes and the error envelope it inherits
 * or sets. Routes live with their domain; an area only says who may call them.
 */
export interface AreaOptions {
  config: Config;
  deps: AppDependencies;
  services: Services;
}

/** The REST API servers call with their sk_ keys: errors in the REST error body. */
export function apiArea(app: FastifyInstance, { config, services }: AreaOptions, done: () => void): void {
  noStoreResponses(app);
  const api = guardedArea(
    app,
    apiKeyGuard({
      authenticator: services.authenticator,
      rateLimiter: services.rateLimiter,
      limitPerMinute: config.apiRateLimitPerMinute,
      usage: services.usage,
    }),
  );
  notesRoutes(api, { notes: services.notes, asyncNotes: services.jobs.asyncNotes, deletion: services.deletion });
  webhookRoutes(api, services.jobs);
  realtimeTokenRoutes(api, services.realtimeTokens);
  realtimeSessionRoutes(api, services.realtimeArchive);
  done();
}

/**
 * Registered under it, this prefix scopes the widget envelope's not-found handler to the widget
 * API, so unknown paths and wrong methods there are answered in the envelope too.
 */
export const WIDGET_API_PREFIX = '/api/widget/';

/**
 * The widget API: the partner backend's token endpoint, the iframe's API behind its widget token,
 * and the PDF links it hands out; every error, 404 and 405 in the `{success:false,error}` envelope.
 */
export async function widgetApiArea(app: FastifyInstance, { config, services }: AreaOptions): Promise<void> {
  answerErrorsWith(app, widgetErrorEnvelope);
  noStoreResponses(app);
  await app.register((partner, _options, done) => {
    const guard = partnerKeyGuard({
      partners: services.partners,
      rateLimiter: services.rateLimiter,
      failuresPerMinute: config.widgetAuthFailuresPerMinute,
      tokensPerPartnerPerMinute: config.widgetTokenRateLimitPerMinute,
    });
    widgetTokenRoutes(guardedArea(partner, guard), services.widgetTokens);
    done();
  });
  await app.register((iframe, _options, done) => {
    const guard = widgetTokenGuard({
      widgetSessions: services.widgetSessions,
      rateLimiter: services.rateLimiter,
      failuresPerMinute: config.widgetAuthFailuresPerMinute,
      perClinicianPerMinute: config.widgetApiRateLimitPerClinicianPerMinute,
      perPartnerPerMinute: config.widgetApiRateLimitPerPartnerPerMinute,
    });
    const widget = guardedArea(iframe, guard);
    widgetSessionRoutes(widget, services.widgetSessions);
    encounterRoutes(widget, {
      encounters: services.encounters,
      notes: services.encounterNotes,
      corrections: services.transcriptCorrections,
    });
    documentRoutes(widget, services.documents);
    done();
  });
  await app.register((links, _options, done) => {
    documentLinkRoutes(openArea(links), services.documents);
    done();
  });
}

/**
 * The console's API: signing in (open, throttled), the session's own routes (its cookie), and the
 * management API (a session or an admin token; never an sk_ key or svc_rt_ token). Errors in the
 * REST error body; nothing cached.
 */
export async function consoleArea(app: FastifyInstance, { config, services }: AreaOptions): Promise<void> {
  noStoreResponses(app);
  const { console } = services;
  const guardOptions = {
    sessions: console.sessions,
    adminTokens: console.adminTokens,
    cookie: console.cookie,
    rateLimiter: services.rateLimiter,
    failuresPerMinute: config.widgetAuthFailuresPerMinute,
    limitPerMinute: config.apiRateLimitPerMinute,
  };
  await app.register((context, _options, done) => {
    consoleSignInRoutes(openArea(context), {
      members: console.members,
      sso: console.sso,
      sessions: console.sessions,
      cookie: console.cookie,
      rateLimiter: services.rateLimiter,
      signInFailuresPer15Minutes: config.console.signInFailuresPer15Minutes,
      failuresPerMinute: config.widgetAuthFailuresPerMinute,
    });
    done();
  });
  await app.register((context, _options, done) => {
    consoleSessionRoutes(guardedArea(context, consoleSessionGuard(guardOptions)), console);
    done();
  });
  await app.register((context, _options, done) => {
    const management = guardedArea(context, consoleGuard(guardOptions));
    managementRoutes(management, { projects: console.projects, keys: console.keys, partners: services.partners });
    organisationRoutes(management, {
      sso: console.sso,
      members: console.members,
      adminTokens: console.adminTokens,
      usage: console.usageReport,
      auditRecords: console.auditRecords,
    });
    done();
  });
}

/** What anyone may fetch: health, the OpenAPI document, the widget's keys, page and assets. */
export function publicArea(app: FastifyInstance, { config, deps, services }: AreaOptions, done: () => void): void {
  const open = openArea(app);
  operationsRoutes(open, {
    leaving: () => app.draining.leaving,
    readinessChecks: { database: () => deps.database.ping(), ...deps.readinessChecks },
    featureChecks: {
      recognizer: async () => {
        const status = await services.recognizer.status();
        if (!status.available) throw new Error(status.reason);
      },
    },
    realtimeRoom: () => services.realtime.hasRoom(),
    apiDocument: () => apiDocument(config),
  });
  jwksRoutes(open, services.signer);
  widgetPageRoutes(open, { widgetSessions: services.widgetSessions, clock: deps.clock, appDir: config.widgetAppDir });
  consolePageRoutes(open, { appDir: config.console.appDir });
  done();
}
