import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';

import type { Recognizer } from './asr/recognizer.js';
import { Authenticator } from './auth/authenticator.js';
import { RealtimeTokenService } from './auth/realtime-tokens.js';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import { EncounterDocumentService } from './encounters/documents/document-service.js';
import { PdfLinks } from './encounters/documents/pdf-links.js';
import { EncounterNoteService } from './encounters/encounter-notes.js';
import { EncounterService } from './encounters/encounter-service.js';
import { EncounterTranscripts } from './encounters/transcripts.js';
import { apiKeyGuard } from './http/api-key-guard.js';
import { registerDraining } from './http/draining.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { operationsRoutes, type ReadinessCheck } from './http/operations.js';
import { requestIdFor } from './http/request-id.js';
import { registerRouteTable } from './http/route-table.js';
import { registerRetentionSweep } from './http/retention-sweep.js';
import { notesRoutes } from './http/v1/notes.js';
import { realtimeSessionRoutes } from './http/v1/realtime-sessions.js';
import { realtimeTokenRoutes } from './http/v1/realtime-tokens.js';
import { templatesRoutes } from './http/v1/templates.js';
import { jwksRoute } from './http/widget/jwks-route.js';
import { widgetEncounterRoutes } from './http/widget/widget-encounter-routes.js';
import { widgetPdfRoute } from './http/widget/widget-pdf-route.js';
import { widgetPageRoute } from './http/widget/widget-page.js';
import { widgetSessionRoutes } from './http/widget/widget-session-routes.js';
import { widgetTokenRoute } from './http/widget/widget-token-route.js';
import { RateLimiter, type RateLimitStore } from './ratelimit/rate-limiter.js';
import { registerRealtimeRoute } from './realtime/route.js';
import { RealtimeService } from './realtime/service.js';
import { RealtimeSessionArchive } from './realtime/session-archive.js';
import type { Database } from './store/database.js';
import { createRepositories } from './store/repositories.js';
import { noteProducer } from './notes/engines/select.js';
import { NoteService } from './notes/note-service.js';
import { SERVICE_VERSION } from './version.js';
import { PartnerService } from './partners/partner-service.js';
import { WidgetTokenSigner } from './partners/signer.js';
import { WidgetSessionService } from './partners/widget-sessions.js';
import { WidgetTokenService } from './partners/widget-tokens.js';

export interface AppDependencies {
  database: Database;
  clock: Clock;
  /** A pino logger; Fastify's logger type is pino's surface. */
  logger: FastifyBaseLogger;
  rateLimitStore: RateLimitStore;
  /** Extra readiness checks beside the database (e.g. Redis). */
  readinessChecks?: Readonly<Record<string, ReadinessCheck>>;
  /**
   * The speech recognizer behind the realtime WebSocket. Absent (or unavailable), the service still
   * runs and realtime sessions are refused with `recognizer_unavailable` and the install command.
   */
  recognizer?: Recognizer;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime WebSocket's sessions on this instance. */
    realtime: RealtimeService;
  }
}

const DAY_MS = 86_400_000;

/** Fastify takes a hop count as a function of the hop index. */
function trustProxyOption(value: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** Assembles the HTTP service. Never listens: main.ts does, and tests use inject() or port 0. */
export async function buildApp(config: Config, deps: AppDependencies): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger,
    genReqId: requestIdFor,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    // Draining answers late requests itself, with the service's error body.
    return503OnClosing: false,
  });

  registerErrorHandler(app, config.bodyLimitBytes);
  registerRouteTable(app);
  registerJsonBodyParser(app);
  app.decorateRequest('principal', null);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerDraining(app);

  const repositories = createRepositories(deps.database);
  const authenticator = new Authenticator(repositories, deps.clock, deps.database.credentialChanges);
  const realtimeTokens = new RealtimeTokenService(repositories, deps.clock, config);
  const rateLimiter = new RateLimiter(deps.rateLimitStore, () => deps.clock.now());
  const signer = await WidgetTokenSigner.open(repositories, deps.clock, {
    issuer: config.widgetBaseUrl,
    privateKeyPem: config.widgetJwtPrivateKey,
  });
  const partners = new PartnerService(repositories, deps.clock, config.keyRotationGraceSeconds);
  const notes = new NoteService(
    repositories,
    deps.clock,
    noteProducer(config, deps.logger),
    config.notes.retentionDays * DAY_MS,
  );
  registerRetentionSweep(app, 'notes', () => notes.deleteExpired());

  operationsRoutes(app, {
    readinessChecks: { database: () => deps.database.ping(), ...deps.readinessChecks },
    featureChecks: {
      recognizer: async () => {
        if (deps.recognizer === undefined) throw new Error('no speech recognizer is configured');
        const status = await deps.recognizer.status();
        if (!status.available) throw new Error(status.reason);
      },
    },
    version: SERVICE_VERSION,
    servers: [
      { url: config.publicBaseUrl, description: 'Production (sk_live_ keys)' },
      { url: config.sandboxBaseUrl, description: 'Sandbox (sk_test_ keys)' },
    ],
  });

  const realtimeStore = { sessions: repositories.realtimeSessions, segments: repositories.transcriptSegments };
  const realtime = new RealtimeService({
    recognizer: deps.recognizer,
    clock: deps.clock,
    config: config.realtime,
    logger: deps.logger,
    store: realtimeStore,
  });
  const realtimeArchive = new RealtimeSessionArchive({
    store: realtimeStore,
    clock: deps.clock,
    config: config.realtime,
    isStreaming: (id) => realtime.holds(id),
  });
  registerRetentionSweep(app, 'realtime_sessions', () => realtimeArchive.deleteExpired());

  // The authenticated REST API: an encapsulated context so the key guard covers exactly these routes.
  await app.register((v1, _options, done) => {
    v1.addHook('onRequest', apiKeyGuard({ authenticator, rateLimiter, limitPerMinute: config.apiRateLimitPerMinute }));
    templatesRoutes(v1);
    notesRoutes(v1, notes);
    realtimeTokenRoutes(v1, realtimeTokens);
    realtimeSessionRoutes(v1, realtimeArchive);
    done();
  });

  app.decorate('realtime', realtime);
  await registerRealtimeRoute(app, { authenticator, service: realtime, maxFrameBytes: config.realtime.maxFrameBytes });

  widgetTokenRoute(app, {
    partners,
    tokens: new WidgetTokenService(repositories, deps.clock, signer),
    rateLimiter,
    limitPerMinute: config.widgetTokenRateLimitPerMinute,
  });
  // The iframe's API: its own context, so the widget token guard covers exactly these routes.
  const widgetSessions = new WidgetSessionService(repositories, deps.clock, signer);
  // A widget encounter's notes, documents and PDFs are kept as long as notes are (NOTES_RETENTION_DAYS).
  const widgetRetentionMs = config.notes.retentionDays * DAY_MS;
  const transcripts = new EncounterTranscripts(realtimeArchive);
  const encounterNotes = new EncounterNoteService({ repositories, clock: deps.clock, notes, transcripts });
  const documents = new EncounterDocumentService({
    repositories,
    clock: deps.clock,
    links: await PdfLinks.open(repositories.serviceSecrets, deps.clock, {
      baseUrl: config.widgetBaseUrl,
      ...config.widgetPdfLinks,
    }),
    retentionMs: widgetRetentionMs,
  });
  const encounters = new EncounterService({
    repositories,
    clock: deps.clock,
    realtimeTokens,
    transcripts,
    notes: encounterNotes,
    documents,
    retentionMs: widgetRetentionMs,
  });
  registerRetentionSweep(app, 'widget_documents', () => documents.deleteExpired());
  registerRetentionSweep(app, 'widget_encounters', () => encounters.deleteExpired());
  await app.register((widget, _options, done) => {
    widgetSessionRoutes(widget, widgetSessions, encounters);
    widgetEncounterRoutes(widget, { encounters, notes: encounterNotes, documents });
    done();
  });
  widgetPdfRoute(app, documents);
  jwksRoute(app, signer);
  widgetPageRoute(app, {
    widgetSessions,
    clock: deps.clock,
    appDir: config.widgetAppDir,
  });

  return app;
}
