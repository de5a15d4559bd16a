/**
 * The servers under test, run in a child process of the benchmark so they get an event loop (and,
 * on a 2-core machine, a core) of their own instead of competing with the load generator.
 *
 * Starts the real service and a bare Fastify app on loopback, reports their origins and a fresh
 * API key over IPC, and exits when the runner says stop or goes away.
 */
// First, so the service's V8 settings hold before any of its modules runs (imports are evaluated
// in order; the service's entry points go further and do not even load them before).
import '@chartwright/server/internal/v8-flags.js';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildApp } from '@chartwright/server/internal/app.js';
import { PocketSphinxRecognizer } from '@chartwright/server/internal/asr/index.js';
import { ApiKeyService } from '@chartwright/server/internal/auth/api-keys.js';
import { systemClock } from '@chartwright/server/internal/clock.js';
import { loadConfig } from '@chartwright/server/internal/config/config.js';
import { ConsoleMembers } from '@chartwright/server/internal/console/members.js';
import { createLogger } from '@chartwright/server/internal/logger.js';
import { CURATED_TEMPLATES, CURATED_TEMPLATES_JSON } from '@chartwright/server/internal/notes/templates.js';
import { PartnerService } from '@chartwright/server/internal/partners/partner-service.js';
import { ProjectService } from '@chartwright/server/internal/projects/project-service.js';
import { openRuntime, type Runtime } from '@chartwright/server/internal/runtime.js';
import { createRepositories } from '@chartwright/server/internal/store/repositories.js';
import Fastify, { type FastifyInstance } from 'fastify';

import { isRunnerMessage, recognizerEnvironment, TEMPLATES_PATH, type TargetMessage, type Targets } from './ipc.js';
import { loopDelayProbe } from './loop-delay-probe.js';

/** Resolves once the message is handed to the channel, so exiting right after does not drop it. */
const send = (message: TargetMessage): Promise<void> =>
  new Promise((resolve) => {
    if (process.send === undefined) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });

async function listen(app: FastifyInstance): Promise<string> {
  // Port 0: the OS picks a free port, so a run never collides with a service already running.
  return app.listen({ host: '127.0.0.1', port: 0 });
}

/** What start() opened, in the order close() must release it. */
interface Opened {
  apps: FastifyInstance[];
  runtime: Runtime | null;
  recognizer: PocketSphinxRecognizer | null;
  directory: string;
}

async function start(opened: Opened): Promise<Targets> {
  // A file database (not :memory:) so the key lookup pays for what production SQLite pays for:
  // WAL, the page cache and a real file, on an environment-independent, throwaway path.
  const config = loadConfig({
    DATABASE_URL: join(opened.directory, 'bench.db'),
    // LOG_LEVEL is left at its default (info), as in production: the runner points stdout at a file.
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: '0',
    // The maximum the config accepts. The default (600/min) would turn the run into a 429 test.
    // Every authenticated scenario shares this one key's project limit, so it is only reached by
    // more than ~16,000 authenticated requests per second sustained for a minute; the runner
    // fails loudly on any non-200 if that ever happens.
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    // Raised for the same reason: one partner mints every token of the run.
    WIDGET_TOKEN_RATE_LIMIT_PER_MINUTE: '1000000',
    ...recognizerEnvironment(process.env),
  });
  const logger = createLogger(config.logLevel);
  const runtime = await openRuntime(config, logger);
  opened.runtime = runtime;

  const repositories = createRepositories(runtime.database);
  const project = await new ProjectService(repositories, systemClock).create('Benchmark');
  const { secret } = await new ApiKeyService(repositories, systemClock, config.keyRotationGraceSeconds).create({
    projectId: project.id,
    environment: 'test',
    name: 'bench',
  });
  const neighbour = await new ProjectService(repositories, systemClock).create('Noisy neighbour');
  const { secret: neighbourKey } = await new ApiKeyService(
    repositories,
    systemClock,
    config.keyRotationGraceSeconds,
  ).create({ projectId: neighbour.id, environment: 'test', name: 'neighbour' });
  const organisation = await repositories.organisations.first();
  const setup = await new ConsoleMembers(repositories, systemClock, config.publicBaseUrl).issueSetupLink(
    organisation.id,
  );
  const { partnerKey } = await new PartnerService(repositories, systemClock, config.keyRotationGraceSeconds).create({
    projectId: project.id,
    environment: 'test',
    name: 'Benchmark EMR',
    allowedOrigins: ['https://emr.bench.example'],
  });

  // The real recognizer, one worker per core, warmed up so the first streams do not pay its start.
  const recognizer = new PocketSphinxRecognizer();
  opened.recognizer = recognizer;
  if ((await recognizer.status()).available) await recognizer.warmUp();
  const api = await buildApp(config, {
    database: runtime.database,
    clock: systemClock,
    logger,
    rateLimitStore: runtime.rateLimitStore,
    readinessChecks: runtime.readinessChecks,
    recognizer,
  });
  opened.apps.push(api);

  // The baselines: Fastify with its defaults and no logger, one route each, the same JSON. The
  // plain one is the route anyone would write (return the objects); the static one sends the list
  // serialized once, as the service does, so the gap to it is purely the per-request work.
  const bare = Fastify();
  bare.get(TEMPLATES_PATH, () => CURATED_TEMPLATES);
  const bareStatic = Fastify();
  bareStatic.get(TEMPLATES_PATH, (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(CURATED_TEMPLATES_JSON),
  );
  const probe = loopDelayProbe();
  opened.apps.push(bare, bareStatic, probe);

  const [apiOrigin, bareOrigin, bareStaticOrigin, probeOrigin] = await Promise.all([
    listen(api),
    listen(bare),
    listen(bareStatic),
    listen(probe),
  ]);
  return {
    apiOrigin,
    bareOrigin,
    bareStaticOrigin,
    apiKey: secret,
    partnerKey,
    recognizerPids: recognizer.workerPids(),
    neighbourKey,
    probeOrigin,
    projectId: project.id,
    consoleSetupToken: setup.url.slice(setup.url.lastIndexOf('/') + 1),
  };
}

async function close(opened: Opened): Promise<void> {
  await Promise.allSettled(opened.apps.map((app) => app.close()));
  await opened.recognizer?.close().catch(() => undefined);
  await opened.runtime?.close().catch(() => undefined);
  rmSync(opened.directory, { recursive: true, force: true });
}

async function main(): Promise<void> {
  if (process.send === undefined) {
    process.stderr.write('bench target: start me with child_process.fork (I need an IPC channel)\n');
    process.exitCode = 2;
    return;
  }
  // The runner passes the directory so it can remove it even if this process is killed; when
  // started by hand, make one.
  const directory = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'chartwright-bench-'));
  const opened: Opened = { apps: [], runtime: null, recognizer: null, directory };

  let closing: Promise<void> | null = null;
  const shutDown = (): void => {
    closing ??= close(opened).finally(() => {
      // Exit explicitly: keep-alive sockets of the load generator must not keep the child alive.
      process.exit(process.exitCode ?? 0);
    });
  };
  process.on('message', (message) => {
    if (isRunnerMessage(message)) shutDown();
  });
  // The IPC channel closes when the runner exits or is killed: never outlive it.
  process.once('disconnect', shutDown);
  // Ctrl-C reaches the whole process group: still remove the temporary database.
  process.once('SIGINT', shutDown);
  process.once('SIGTERM', shutDown);

  try {
    await send({ type: 'ready', targets: await start(opened) });
  } catch (error) {
    await send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exitCode = 1;
    shutDown();
  }
}

await main();
