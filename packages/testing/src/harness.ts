import { Writable } from 'node:stream';

import type { Environment } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';

import { buildApp } from '@chartwright/server/internal/app.js';
import type { Recognizer } from '@chartwright/server/internal/asr/recognizer.js';
import { ApiKeyService } from '@chartwright/server/internal/auth/api-keys.js';
import { ConsoleMembers } from '@chartwright/server/internal/console/members.js';
import { ManualClock } from '@chartwright/server/internal/clock.js';
import { testConfig, type Config } from '@chartwright/server/internal/config/config.js';
import { createLogger } from '@chartwright/server/internal/logger.js';
import { ProjectService } from '@chartwright/server/internal/projects/project-service.js';
import { MemoryRateLimitStore } from '@chartwright/server/internal/ratelimit/memory-store.js';
import type { RateLimitStore } from '@chartwright/server/internal/ratelimit/rate-limiter.js';
import type { Database, Dialect } from '@chartwright/server/internal/store/database.js';
import { createRepositories, type Repositories } from '@chartwright/server/internal/store/repositories.js';
import { PartnerService } from '@chartwright/server/internal/partners/partner-service.js';
import { Retention } from '@chartwright/server/internal/retention/retention.js';
import { generatedSecrets, type GeneratedSecrets } from '@chartwright/server/internal/secrets/key-file.js';
import { openTestDatabase, type TestDatabase } from './databases.js';

/** Collects every log line the service writes, so tests can assert what never appears in them. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.lines.push(chunk.toString('utf8'));
    callback();
  }

  get text(): string {
    return this.lines.join('');
  }
}

export interface Harness {
  app: FastifyInstance;
  database: Database;
  clock: ManualClock;
  config: Config;
  repositories: Repositories;
  projects: ProjectService;
  keys: ApiKeyService;
  logs: LogCapture;
  /**
   * The key file's secrets (in memory unless the test configures a key file): give them to another instance on the same database, as
   * instances share a key file, or read the signing key to forge a token.
   */
  secrets: GeneratedSecrets;
  /** Partners (EMR vendors), on the harness's database and clock. */
  partners: PartnerService;
  /** The retention sweep the service runs hourly, to run when the test says. */
  retention: Retention;
  /** A project with one sandbox and one production key. */
  project: { id: string; testKey: string; testKeyId: string; liveKey: string; liveKeyId: string };
  request(options: InjectOptions & { key?: string }): Promise<LightMyRequestResponse>;
  /** A partner of the harness project (sandbox, https://emr.example.com, default lifetime unless told). */
  createPartner(options?: CreatePartnerOptions): Promise<{ id: string; partnerKey: string }>;
  /** POST /api/widget/token with the partner key; fails the test unless it answers 200. */
  mintWidgetToken(
    partnerKey: string,
    body: { userEmail: string; emrUserId: string; emrSessionId?: string },
  ): Promise<{ token: string; expiresAt: string }>;
  /**
   * The first-start setup link of the deployment's organisation, as `chartwright console
   * setup-link` prints it but relative (`/console#/setup/<token>`), for a browser on any port.
   */
  consoleSetupLink(): Promise<string>;
  close(): Promise<void>;
}

export interface CreatePartnerOptions {
  projectId?: string;
  environment?: Environment;
  name?: string;
  origins?: readonly string[];
  tokenLifetimeSeconds?: number;
}

export interface HarnessOptions {
  dialect?: Dialect;
  /**
   * A database the test opened (e.g. one PostgreSQL schema that two instances share) instead of one
   * of the harness's own; the test closes it.
   */
  database?: Database;
  config?: Partial<Config>;
  rateLimitStore?: RateLimitStore;
  /** The realtime WebSocket's recognizer; absent, sessions are refused as recognizer_unavailable. */
  recognizer?: Recognizer;
  /** Adds test-only routes before the app is sealed, as any plugin would. */
  configure?: (app: FastifyInstance) => void;
}

/** The real service, in process, on a database of its own, with a clock the test moves. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const config = testConfig({ logLevel: 'info', ...options.config });
  const testDatabase: TestDatabase =
    options.database === undefined
      ? await openTestDatabase(options.dialect ?? 'sqlite')
      : { database: options.database, dispose: () => Promise.resolve() };
  const clock = new ManualClock();
  const logs = new LogCapture();
  const secrets = generatedSecrets(config.keyFile);
  const app = await buildApp(config, {
    database: testDatabase.database,
    secrets,
    clock,
    logger: createLogger(config.logLevel, logs),
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    ...(options.recognizer === undefined ? {} : { recognizer: options.recognizer }),
  });
  options.configure?.(app);
  await app.ready();
  const repositories = createRepositories(testDatabase.database);
  const projects = new ProjectService(repositories, clock);
  const keys = new ApiKeyService(repositories, clock, config.keyRotationGraceSeconds);
  const partners = new PartnerService(repositories, clock, config.keyRotationGraceSeconds);

  const created = await projects.create('Harness clinic');
  const issue = (environment: Environment) => keys.create({ projectId: created.id, environment });
  const test = await issue('test');
  const live = await issue('live');

  let closed = false;
  return {
    app,
    database: testDatabase.database,
    clock,
    config,
    repositories,
    projects,
    keys,
    logs,
    secrets,
    partners,
    retention: new Retention({ repositories, database: testDatabase.database, clock, config }),
    project: {
      id: created.id,
      testKey: test.secret,
      testKeyId: test.key.id,
      liveKey: live.secret,
      liveKeyId: live.key.id,
    },
    request: ({ key, headers, ...rest }) =>
      app.inject({
        ...rest,
        headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...headers },
      }),
    createPartner: async (partner = {}) => {
      const issued = await partners.create({
        projectId: partner.projectId ?? created.id,
        environment: partner.environment ?? 'test',
        name: partner.name ?? 'Harness EMR',
        allowedOrigins: partner.origins ?? ['https://emr.example.com'],
        ...(partner.tokenLifetimeSeconds === undefined ? {} : { tokenLifetimeSeconds: partner.tokenLifetimeSeconds }),
      });
      return { id: issued.partner.id, partnerKey: issued.partnerKey };
    },
    mintWidgetToken: async (partnerKey, body) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/widget/token',
        headers: { 'x-partner-key': partnerKey },
        payload: body,
      });
      if (response.statusCode !== 200) {
        throw new Error(`POST /api/widget/token answered ${response.statusCode}: ${response.body}`);
      }
      return response.json<{ data: { token: string; expiresAt: string } }>().data;
    },
    consoleSetupLink: async () => {
      const members = new ConsoleMembers(repositories, clock, config.publicBaseUrl);
      const organisation = await repositories.organisations.first();
      const { url } = await members.issueSetupLink(organisation.id);
      return url.slice(config.publicBaseUrl.length);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
      // A test may have closed the database itself to simulate an outage.
      await testDatabase.dispose().catch(() => undefined);
    },
  };
}
