import { generateKeyPairSync } from 'node:crypto';

import { z } from 'zod';

import { formatPath, LIMITS } from '@chartwright/protocol';

import { appBuildDirectory } from './app-builds.js';
import { CONSOLE_ENV, consoleConfig, type ConsoleConfig } from './console-config.js';
import { databaseTarget, defaultKeyFile, type DatabaseTarget } from './database-target.js';
import { boolean, databaseUrl, httpUrl, integer, redisUrl } from './env-values.js';
import { JOBS_ENV, jobsConfig, type JobsConfig } from './jobs-config.js';
import { REALTIME_ENV, realtimeConfig, type RealtimeConfig } from './realtime-config.js';
import { METRICS_ENV, metricsConfig, metricsProblems, type MetricsConfig } from './metrics-config.js';
import { trustProxy, type TrustProxy } from './trust-proxy.js';

export type { DatabaseTarget } from './database-target.js';
export type { JobsConfig } from './jobs-config.js';
export type { MetricsConfig } from './metrics-config.js';
export type { RealtimeConfig } from './realtime-config.js';
export type { TrustProxy } from './trust-proxy.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z
  .object({
    PORT: integer(0, 65535).default(8080),
    HOST: z.string().trim().min(1, { error: 'must not be empty' }).default('127.0.0.1'),
    PUBLIC_BASE_URL: httpUrl.optional(),
    SANDBOX_BASE_URL: httpUrl.optional(),
    DATABASE_URL: databaseUrl.default('./data/chartwright.db'),
    REDIS_URL: redisUrl.optional(),
    KEY_ROTATION_GRACE_SECONDS: integer(0, LIMITS.rotationGraceMaxSeconds).default(86400),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    TRUST_PROXY: trustProxy.default(0),
    REQUEST_TIMEOUT_MS: integer(1, 3_600_000).default(30_000),
    HEADERS_TIMEOUT_MS: integer(1, 3_600_000).default(10_000),
    MAX_CONNECTIONS_PER_IP: integer(1, 1_000_000).default(256),
    API_RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000).default(600),
    BODY_LIMIT_BYTES: integer(1024, 64 * 1024 * 1024).default(1024 * 1024),
    SHUTDOWN_TIMEOUT_MS: integer(0, 600_000).default(10_000),
    SHUTDOWN_DRAIN_MS: integer(0, 600_000).default(5_000),
    SEED_DEMO: boolean.default(true),
    WIDGET_BASE_URL: httpUrl.optional(),
    WIDGET_TOKEN_RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000).default(600),
    WIDGET_AUTH_FAILURES_PER_MINUTE: integer(1, 1_000_000).default(20),
    WIDGET_API_RATE_LIMIT_PER_CLINICIAN_PER_MINUTE: integer(1, 1_000_000).default(300),
    WIDGET_API_RATE_LIMIT_PER_PARTNER_PER_MINUTE: integer(1, 1_000_000).default(6000),
    WIDGET_JWT_PRIVATE_KEY: z
      .string()
      .trim()
      .refine((value) => value.includes('-----BEGIN PRIVATE KEY-----'), {
        error: 'must be a PKCS#8 PEM private key (Ed25519)',
      })
      .optional(),
    WIDGET_PDF_LINK_TTL_SECONDS: integer(60, 86_400).default(900),
    WIDGET_PDF_LINK_SECRET: z.string().trim().min(32, { error: 'must be at least 32 characters long' }).optional(),
    WIDGET_APP_DIR: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
    NOTES_ENGINE: z.enum(['extractive', 'openai'], { error: 'must be extractive or openai' }).default('extractive'),
    NOTES_OPENAI_BASE_URL: httpUrl.optional(),
    NOTES_OPENAI_API_KEY: z.string().trim().optional(),
    NOTES_OPENAI_MODEL: z.string().trim().min(1).optional(),
    NOTES_OPENAI_TIMEOUT_MS: integer(1000, 600_000).default(60_000),
    NOTES_RETENTION_DAYS: integer(1, 3650).default(30),
    NOTES_WORKERS: integer(0, 256).default(0),
    NOTES_QUEUE_LIMIT: integer(0, 100_000).default(32),
    // Six years, the longest HIPAA asks documentation to be kept (45 CFR 164.316(b)(2)), counted with leap days.
    AUDIT_RETENTION_DAYS: integer(1, 36_500).default(2192),
    AUDIT_HMAC_KEY: z.string().trim().min(32, { error: 'must be at least 32 characters long' }).optional(),
    KEY_FILE: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
    ...CONSOLE_ENV,
    ...JOBS_ENV,
    ...REALTIME_ENV,
    ...METRICS_ENV,
    ASR_ENGINE: z.enum(['pocketsphinx', 'openai'], { error: 'must be pocketsphinx or openai' }).default('pocketsphinx'),
    ASR_OPENAI_BASE_URL: httpUrl.optional(),
    ASR_OPENAI_API_KEY: z.string().trim().optional(),
    ASR_OPENAI_MODEL: z.string().trim().min(1).optional(),
    ASR_OPENAI_TIMEOUT_MS: integer(1000, 600_000).default(30_000),
    ASR_OPENAI_MAX_CONCURRENT_REQUESTS: integer(1, 1000).default(4),
    ASR_VOCABULARY: z.enum(['clinical', 'stock'], { error: 'must be clinical or stock' }).default('clinical'),
    ASR_SECOND_PASS: boolean.default(false),
  })
  .superRefine((values, context) => {
    // Node refuses a server whose headers may take longer than the whole request.
    if (values.HEADERS_TIMEOUT_MS > values.REQUEST_TIMEOUT_MS) {
      context.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_MS'],
        message: `must be at most REQUEST_TIMEOUT_MS (${values.REQUEST_TIMEOUT_MS})`,
      });
    }
    for (const [name, message] of metricsProblems(values)) context.addIssue({ code: 'custom', path: [name], message });
    // An OpenAI-compatible engine cannot run without an address and a model; say so at start.
    const openAiEngines = [
      {
        setting: 'NOTES_ENGINE=openai',
        on: values.NOTES_ENGINE === 'openai',
        needs: ['NOTES_OPENAI_BASE_URL', 'NOTES_OPENAI_MODEL'],
      },
      {
        setting: 'ASR_ENGINE=openai',
        on: values.ASR_ENGINE === 'openai',
        needs: ['ASR_OPENAI_BASE_URL', 'ASR_OPENAI_MODEL'],
      },
    ] as const;
    for (const { setting, on, needs } of openAiEngines) {
      if (!on) continue;
      for (const name of needs) {
        if (values[name] === undefined) {
          context.addIssue({ code: 'custom', path: [name], message: `is required when ${setting}` });
        }
      }
    }
  });

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Base URL of the production environment, without a trailing slash. */
  readonly publicBaseUrl: string;
  /** Base URL of the sandbox environment, without a trailing slash. */
  readonly sandboxBaseUrl: string;
  readonly database: DatabaseTarget;
  readonly redisUrl: string | null;
  readonly keyRotationGraceSeconds: number;
  readonly logLevel: LogLevel;
  readonly trustProxy: TrustProxy;
  readonly apiRateLimitPerMinute: number;
  readonly bodyLimitBytes: number;
  readonly shutdownTimeoutMs: number;
  /** On SIGTERM, how long /readyz answers 503 (requests still served) before the listener closes. */
  readonly shutdownDrainMs: number;
  readonly connections: ConnectionLimits;
  readonly seedDemo: boolean;
  /** `{widget_host}`: serves the widget page, its token endpoint and session API. */
  readonly widgetBaseUrl: string;
  /** Widget tokens one partner may mint per minute. */
  readonly widgetTokenRateLimitPerMinute: number;
  /** Failed authentications per client IP per minute, on the token endpoint and on the widget API each. */
  readonly widgetAuthFailuresPerMinute: number;
  /** Widget API requests per minute of one clinician, and of all of one partner's clinicians. */
  readonly widgetApiRateLimitPerClinicianPerMinute: number;
  readonly widgetApiRateLimitPerPartnerPerMinute: number;
  /** PEM of the Ed25519 key that signs widget tokens; null = generate one and keep it in the database. */
  readonly widgetJwtPrivateKey: string | null;
  /** Signed links to widget documents' PDFs (PUSH_DOCUMENT.pdfUrl). */
  readonly widgetPdfLinks: {
    readonly ttlSeconds: number;
    /** The HMAC key; null = generate one and keep it in the database. */
    readonly secret: string | null;
  };
  /** The widget app's build (index.html and assets/) served at /widget. */
  readonly widgetAppDir: string;
  readonly notes: NotesConfig;
  readonly jobs: JobsConfig;
  readonly asr: AsrConfig;
  readonly realtime: RealtimeConfig;
  readonly audit: AuditConfig;
  readonly console: ConsoleConfig;
  /** The /metrics listener; null (the default) when METRICS_PORT is unset. */
  readonly metrics: MetricsConfig | null;
  /**
   * Where the secrets the service generates for itself are kept, outside the database: an owner-only
   * file; null keeps them in memory only (an in-memory database's tests).
   */
  readonly keyFile: string | null;
}

export interface AuditConfig {
  /** How long audit records are kept. */
  readonly retentionDays: number;
  /** Keys the audit chain and the patient references in it; null = generated into the key file. */
  readonly hmacKey: string | null;
}

/** What one client may hold of the HTTP server, so slow or numerous sockets cannot exhaust it. */
export interface ConnectionLimits {
  /** A request whose headers and body have not all arrived by then is answered 408 and closed. */
  readonly requestTimeoutMs: number;
  /** The same for the headers alone (at most requestTimeoutMs). */
  readonly headersTimeoutMs: number;
  /** Open connections from one client address; trusted proxies are exempt. */
  readonly maxPerAddress: number;
}

/** The speech recognizer behind the realtime WebSocket. */
export interface AsrConfig {
  readonly engine: 'pocketsphinx' | 'openai';
  /** PocketSphinx's language model and dictionary: the shipped clinical vocabulary or the stock en-us pair. */
  readonly vocabulary: 'clinical' | 'stock';
  /** PocketSphinx re-decodes each utterance when it ends: more accurate, slower (ASR_SECOND_PASS). */
  readonly secondPass: boolean;
  /** Set when engine is openai. */
  readonly openai: {
    /** The API root including its version (`http://localhost:8000/v1`); `/audio/transcriptions` is appended. */
    readonly baseUrl: string;
    readonly apiKey: string | null;
    readonly model: string;
    /** One transcription request's limit. */
    readonly timeoutMs: number;
    /** Transcription requests in flight at once, across every session of the instance. */
    readonly maxConcurrentRequests: number;
  } | null;
}

export interface NotesConfig {
  readonly engine: 'extractive' | 'openai';
  /** Set when engine is openai. */
  readonly openai: {
    readonly baseUrl: string;
    readonly apiKey: string | null;
    readonly model: string;
    readonly timeoutMs: number;
  } | null;
  readonly retentionDays: number;
  /** Note worker processes; 0 = one fewer than the CPU cores (at least one). */
  readonly workers: number;
  /** Notes that may wait for a worker; more are refused with `notes_overloaded` (503). */
  readonly queueLimit: number;
}

export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type EnvValues = z.output<typeof envSchema>;

/** An API key variable set to nothing means no key. */
const apiKeyOf = (value: string | undefined) => (value === undefined || value === '' ? null : value);

function notesConfig(values: EnvValues): NotesConfig {
  return Object.freeze({
    engine: values.NOTES_ENGINE,
    openai:
      values.NOTES_ENGINE === 'openai' &&
      values.NOTES_OPENAI_BASE_URL !== undefined &&
      values.NOTES_OPENAI_MODEL !== undefined
        ? Object.freeze({
            baseUrl: values.NOTES_OPENAI_BASE_URL,
            apiKey: apiKeyOf(values.NOTES_OPENAI_API_KEY),
            model: values.NOTES_OPENAI_MODEL,
            timeoutMs: values.NOTES_OPENAI_TIMEOUT_MS,
          })
        : null,
    retentionDays: values.NOTES_RETENTION_DAYS,
    workers: values.NOTES_WORKERS,
    queueLimit: values.NOTES_QUEUE_LIMIT,
  });
}

function asrConfig(values: EnvValues): AsrConfig {
  return Object.freeze({
    engine: values.ASR_ENGINE,
    vocabulary: values.ASR_VOCABULARY,
    secondPass: values.ASR_SECOND_PASS,
    openai:
      values.ASR_ENGINE === 'openai' &&
      values.ASR_OPENAI_BASE_URL !== undefined &&
      values.ASR_OPENAI_MODEL !== undefined
        ? Object.freeze({
            baseUrl: values.ASR_OPENAI_BASE_URL,
            apiKey: apiKeyOf(values.ASR_OPENAI_API_KEY),
            model: values.ASR_OPENAI_MODEL,
            timeoutMs: values.ASR_OPENAI_TIMEOUT_MS,
            maxConcurrentRequests: values.ASR_OPENAI_MAX_CONCURRENT_REQUESTS,
          })
        : null,
  });
}

/** Reads the whole configuration at once and reports every bad variable together. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  // An empty variable means "not set", as it does for most twelve-factor services.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`));
  }
  const values = parsed.data;
  const publicBaseUrl = values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`;
  const database = Object.freeze(databaseTarget(values.DATABASE_URL));
  return Object.freeze({
    port: values.PORT,
    host: values.HOST,
    publicBaseUrl,
    sandboxBaseUrl: values.SANDBOX_BASE_URL ?? publicBaseUrl,
    database,
    redisUrl: values.REDIS_URL ?? null,
    keyRotationGraceSeconds: values.KEY_ROTATION_GRACE_SECONDS,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    apiRateLimitPerMinute: values.API_RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: values.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: values.SHUTDOWN_DRAIN_MS,
    connections: Object.freeze({
      requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
      headersTimeoutMs: values.HEADERS_TIMEOUT_MS,
      maxPerAddress: values.MAX_CONNECTIONS_PER_IP,
    }),
    seedDemo: values.SEED_DEMO,
    widgetBaseUrl: values.WIDGET_BASE_URL ?? publicBaseUrl,
    widgetTokenRateLimitPerMinute: values.WIDGET_TOKEN_RATE_LIMIT_PER_MINUTE,
    widgetAuthFailuresPerMinute: values.WIDGET_AUTH_FAILURES_PER_MINUTE,
    widgetApiRateLimitPerClinicianPerMinute: values.WIDGET_API_RATE_LIMIT_PER_CLINICIAN_PER_MINUTE,
    widgetApiRateLimitPerPartnerPerMinute: values.WIDGET_API_RATE_LIMIT_PER_PARTNER_PER_MINUTE,
    widgetJwtPrivateKey: values.WIDGET_JWT_PRIVATE_KEY ?? null,
    widgetPdfLinks: Object.freeze({
      ttlSeconds: values.WIDGET_PDF_LINK_TTL_SECONDS,
      secret: values.WIDGET_PDF_LINK_SECRET ?? null,
    }),
    widgetAppDir: values.WIDGET_APP_DIR ?? appBuildDirectory('@chartwright/widget'),
    notes: notesConfig(values),
    jobs: jobsConfig(values),
    realtime: realtimeConfig(values),
    asr: asrConfig(values),
    audit: Object.freeze({ retentionDays: values.AUDIT_RETENTION_DAYS, hmacKey: values.AUDIT_HMAC_KEY ?? null }),
    console: consoleConfig(values),
    metrics: metricsConfig(values),
    keyFile: values.KEY_FILE ?? defaultKeyFile(database),
  });
}

let testSigningKey: string | undefined;
/** One Ed25519 key per test process, made on first use (production never makes it). */
function testWidgetSigningKey(): string {
  testSigningKey ??= generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return testSigningKey;
}

/** A configuration for tests: in-memory SQLite, silent logs, no demo data. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent', SEED_DEMO: 'false', PORT: '0' });
  return Object.freeze({
    ...base,
    publicBaseUrl: 'http://api.test',
    sandboxBaseUrl: 'http://sandbox.test',
    widgetBaseUrl: 'http://widget.test',
    // Configured, as several instances are, so instances a test starts on one database agree.
    audit: { ...base.audit, hmacKey: 'test-audit-hmac-key-0123456789abcdef' },
    widgetPdfLinks: { ...base.widgetPdfLinks, secret: 'test-pdf-link-secret-0123456789abcdef' },
    console: { ...base.console, secretKey: 'test-console-secret-key-0123456789abcdef' },
    widgetJwtPrivateKey: testWidgetSigningKey(),
    ...overrides,
  });
}
