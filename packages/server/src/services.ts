import { randomBytes } from 'node:crypto';

import type { FastifyBaseLogger } from 'fastify';

import type { Recognizer } from './asr/recognizer.js';
import { AuditLog } from './audit/audit-log.js';
import { AuditSubjects } from './audit/audit-subjects.js';
import { OperationAudit } from './audit/operation-audit.js';
import { RealtimeAudit } from './audit/realtime-audit.js';
import { registerRecognizerMetrics } from './asr/recognizer-metrics.js';
import { UNCONFIGURED_RECOGNIZER } from './asr/unconfigured-recognizer.js';
import { ApiKeyService } from './auth/api-keys.js';
import { Authenticator } from './auth/authenticator.js';
import { RealtimeTokenService } from './auth/realtime-tokens.js';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import { AdminTokens } from './console/admin-tokens.js';
import { AuditRecords } from './console/audit-records.js';
import { SessionCookie } from './console/console-guard.js';
import { ConsoleMembers } from './console/members.js';
import { SecretBox } from './console/secret-box.js';
import { ConsoleSessions } from './console/sessions.js';
import { SingleSignOn } from './console/single-sign-on.js';
import { EncounterDocumentService } from './encounters/documents/document-service.js';
import { PdfLinks } from './encounters/documents/pdf-links.js';
import { EncounterNoteService } from './encounters/encounter-notes.js';
import { EncounterService } from './encounters/encounter-service.js';
import { Idempotency } from './idempotency/idempotency.js';
import { createJobs, type Jobs } from './jobs/jobs.js';
import { TranscriptCorrectionService } from './encounters/transcript-corrections.js';
import { EncounterTranscripts } from './encounters/transcripts.js';
import { Metrics } from './metrics/metrics.js';
import { NoteService } from './notes/note-service.js';
import { notePoolFor, type NotePool } from './notes/pool/note-pool.js';
import type { ReadinessCheck } from './operations/routes.js';
import { PartnerService } from './partners/partner-service.js';
import { ProjectService } from './projects/project-service.js';
import { WidgetTokenSigner } from './partners/signer.js';
import { WidgetSessionService } from './partners/widget-sessions.js';
import { WidgetTokenService } from './partners/widget-tokens.js';
import { RateLimiter, type RateLimitStore } from './ratelimit/rate-limiter.js';
import { RealtimeService } from './realtime/service.js';
import { RealtimeSessionArchive } from './realtime/session-archive.js';
import { Deletion } from './retention/deletion.js';
import { Retention } from './retention/retention.js';
import { generatedSecrets, type GeneratedSecrets } from './secrets/key-file.js';
import { sharedSecret, type SharedSecretStores } from './secrets/shared-secret.js';
import type { Database } from './store/database.js';
import { createRepositories, type Repositories } from './store/repositories.js';
import { UsageRecorder } from './usage/usage-recorder.js';
import { UsageReport } from './usage/usage-report.js';

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
  /** Where generated secrets are kept; absent, the configured key file (or memory, with no key file). */
  secrets?: GeneratedSecrets;
}

export interface Services {
  /** The configured engine, or the stand-in that says none is (and what to install). */
  recognizer: Recognizer;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  realtimeTokens: RealtimeTokenService;
  notes: NoteService;
  /** Where notes are written, off the event loop; closed with the app. */
  notePool: NotePool;
  realtime: RealtimeService;
  realtimeArchive: RealtimeSessionArchive;
  signer: WidgetTokenSigner;
  partners: PartnerService;
  widgetTokens: WidgetTokenService;
  widgetSessions: WidgetSessionService;
  encounters: EncounterService;
  encounterNotes: EncounterNoteService;
  transcriptCorrections: TranscriptCorrectionService;
  documents: EncounterDocumentService;
  audit: AuditLog;
  operationAudit: OperationAudit;
  retention: Retention;
  deletion: Deletion;
  usage: UsageRecorder;
  /** Asynchronous notes, their queue and webhooks. */
  jobs: Jobs;
  /** What the services measure, served by the metrics listener. */
  metrics: Metrics;
  console: ConsoleServices;
  idempotency: Idempotency;
}

/** What the console and the management API run on. */
export interface ConsoleServices {
  members: ConsoleMembers;
  sessions: ConsoleSessions;
  cookie: SessionCookie;
  adminTokens: AdminTokens;
  projects: ProjectService;
  keys: ApiKeyService;
  usageReport: UsageReport;
  auditRecords: AuditRecords;
  sso: SingleSignOn;
}

/**
 * What the service seals what it must keep and use again with (OpenID client secrets, the kept answers
 * to Idempotency-Keys): CONSOLE_SECRET_KEY, else the key file's.
 */
export function sealingSecret(config: Config, secrets: SharedSecretStores): Promise<string> {
  return sharedSecret(
    {
      name: 'console_secret_key',
      variable: 'CONSOLE_SECRET_KEY',
      configured: config.console.secretKey,
      generate: () => randomBytes(32).toString('base64url'),
    },
    secrets,
  );
}

function consoleServices(
  config: Config,
  deps: AppDependencies,
  shared: { repositories: Repositories; audit: AuditLog; secretKey: string },
): ConsoleServices {
  const { repositories, secretKey } = shared;
  const projects = new ProjectService(repositories, deps.clock);
  return {
    members: new ConsoleMembers(repositories, deps.clock, config.publicBaseUrl),
    sessions: new ConsoleSessions(repositories, deps.clock, config.console),
    cookie: new SessionCookie(config.publicBaseUrl),
    adminTokens: new AdminTokens(repositories, deps.clock),
    projects,
    keys: new ApiKeyService(repositories, deps.clock, config.keyRotationGraceSeconds),
    usageReport: new UsageReport(repositories, projects, deps.clock),
    auditRecords: new AuditRecords(shared.audit, projects),
    sso: new SingleSignOn({
      repositories,
      clock: deps.clock,
      box: new SecretBox(secretKey),
      audit: shared.audit,
      publicBaseUrl: config.publicBaseUrl,
    }),
  };
}

const DAY_MS = 86_400_000;

/** Every service of the app, each made once, on the one set of repositories. */
export async function createServices(config: Config, deps: AppDependencies): Promise<Services> {
  const { clock } = deps;
  const repositories = createRepositories(deps.database);
  const secrets = {
    file: deps.secrets ?? generatedSecrets(config.keyFile),
    database: repositories.serviceSecrets,
    clock,
  };
  const audit = await AuditLog.open(config.audit, { events: repositories.auditEvents, ...secrets });
  const secretKey = await sealingSecret(config, secrets);
  const auditSubjects = new AuditSubjects(repositories);
  const realtimeTokens = new RealtimeTokenService(repositories, clock, config);
  const signer = await WidgetTokenSigner.open(repositories, secrets, {
    issuer: config.widgetBaseUrl,
    privateKeyPem: config.widgetJwtPrivateKey,
  });
  const usage = new UsageRecorder(repositories, clock, deps.logger);
  const metrics = new Metrics();
  const notePool = notePoolFor(config.notes, deps.logger, metrics);
  const notes = new NoteService(repositories, clock, notePool.write, config.notes.retentionDays * DAY_MS, usage);
  const { recognizer, realtime, deletion, realtimeArchive } = realtimeServices(config, deps, {
    repositories,
    audit: new RealtimeAudit(audit, auditSubjects),
    usage,
    metrics,
  });
  return {
    recognizer,
    authenticator: new Authenticator(repositories, clock, deps.database.credentialChanges),
    rateLimiter: new RateLimiter(deps.rateLimitStore, () => clock.now()),
    realtimeTokens,
    notes,
    notePool,
    realtime,
    realtimeArchive,
    signer,
    partners: new PartnerService(repositories, clock, config.keyRotationGraceSeconds),
    widgetTokens: new WidgetTokenService(repositories, clock, signer, usage),
    widgetSessions: new WidgetSessionService(repositories, clock, signer, recognizer.info),
    audit,
    operationAudit: new OperationAudit(audit, auditSubjects),
    retention: new Retention({ repositories, database: deps.database, clock, config }),
    deletion,
    usage,
    metrics,
    jobs: createJobs(config, { repositories, clock, logger: deps.logger, notes, secretKey, notePool, metrics }),
    console: consoleServices(config, deps, { repositories, audit, secretKey }),
    idempotency: new Idempotency(repositories.idempotencyKeys, clock, new SecretBox(secretKey, 'idempotency answers')),
    ...(await encounterServices(config, deps, {
      repositories,
      realtimeTokens,
      notes,
      realtimeArchive,
      deletion,
      secrets,
    })),
  };
}

/** The realtime socket's sessions, their archive, and deletion (which stops an encounter's live audio). */
function realtimeServices(
  config: Config,
  deps: AppDependencies,
  shared: { repositories: Repositories; audit: RealtimeAudit; usage: UsageRecorder; metrics: Metrics },
): Pick<Services, 'recognizer' | 'realtime' | 'realtimeArchive' | 'deletion'> {
  const { repositories } = shared;
  const recognizer = deps.recognizer ?? UNCONFIGURED_RECOGNIZER;
  registerRecognizerMetrics(shared.metrics, recognizer);
  const realtimeStore = {
    sessions: repositories.realtimeSessions,
    segments: repositories.transcriptSegments,
    corrections: repositories.transcriptCorrections,
  };
  const realtime = new RealtimeService({
    recognizer,
    clock: deps.clock,
    config: config.realtime,
    logger: deps.logger,
    store: realtimeStore,
    audit: shared.audit,
    usage: shared.usage,
    metrics: shared.metrics,
  });
  const deletion = new Deletion({ repositories, database: deps.database, liveAudio: realtime });
  const realtimeArchive = new RealtimeSessionArchive({
    store: realtimeStore,
    clock: deps.clock,
    config: config.realtime,
    isStreaming: (id) => realtime.holds(id),
    deletion,
  });
  return { recognizer, realtime, realtimeArchive, deletion };
}

async function encounterServices(
  config: Config,
  deps: AppDependencies,
  shared: {
    repositories: Repositories;
    realtimeTokens: RealtimeTokenService;
    notes: NoteService;
    realtimeArchive: RealtimeSessionArchive;
    deletion: Deletion;
    secrets: Parameters<typeof PdfLinks.open>[0];
  },
): Promise<Pick<Services, 'encounters' | 'encounterNotes' | 'transcriptCorrections' | 'documents'>> {
  const { repositories } = shared;
  // A widget encounter's notes, documents and PDFs are kept as long as notes are (NOTES_RETENTION_DAYS).
  const retentionMs = config.notes.retentionDays * DAY_MS;
  const transcripts = new EncounterTranscripts(shared.realtimeArchive);
  const encounterNotes = new EncounterNoteService({
    repositories,
    clock: deps.clock,
    notes: shared.notes,
    transcripts,
    deletion: shared.deletion,
  });
  const documents = new EncounterDocumentService({
    repositories,
    clock: deps.clock,
    links: await PdfLinks.open(shared.secrets, {
      baseUrl: config.widgetBaseUrl,
      ...config.widgetPdfLinks,
    }),
    retentionMs,
    deletion: shared.deletion,
  });
  const encounters = new EncounterService({
    repositories,
    clock: deps.clock,
    realtimeTokens: shared.realtimeTokens,
    transcripts,
    notes: encounterNotes,
    documents,
    deletion: shared.deletion,
  });
  const transcriptCorrections = new TranscriptCorrectionService({
    repositories,
    clock: deps.clock,
    archive: shared.realtimeArchive,
  });
  return { encounters, encounterNotes, transcriptCorrections, documents };
}
