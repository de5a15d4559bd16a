import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CSRF_HEADER, type ConsoleSession, type IssuedAdminToken } from '@chartwright/protocol';

import { OWNER } from './console.js';
import { createTestPostgresDatabase, TEST_REDIS_URL } from './databases.js';
import { startHaproxy, type Haproxy } from './haproxy.js';
import { startServiceProcess, waitForReady, type ServiceProcess } from './service-process.js';
import { waitFor } from './wait.js';
import { freePort } from './widget-service.js';

/** One service process of the cluster, under the name HAProxy's configuration gives it. */
export interface ClusterInstance {
  name: string;
  /** `http://127.0.0.1:<port>`: the instance itself, not through the proxy. */
  url: string;
  process: ServiceProcess;
}

export interface Cluster {
  /** HAProxy, from deploy/haproxy/haproxy.cfg, in front of every instance. */
  proxy: Haproxy;
  /** The instances as they run now (heal() replaces the processes that stopped). */
  instances: ClusterInstance[];
  /** Starts again, each on its port, the instances that stopped (killed, drained); waits until HAProxy routes to all. */
  heal(): Promise<void>;
  /** The instance whose log has a line with `message` and `field`: `value` (log lines are written asynchronously). */
  instanceThatLogged(message: string, field: string, value: string): Promise<ClusterInstance>;
  /** An `admin` admin token of the organisation, made through the first start's console setup link. */
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The log lines (JSON) a process wrote, whole ones only (the last may still be arriving); the
 * console's banner beside them is for people.
 */
const logLines = (service: ServiceProcess): Record<string, unknown>[] =>
  service
    .stdout()
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * The console's setup links the instances printed, newest first: each start on a deployment with no
 * owner issues one, and each stops the one before it from working.
 */
async function setupLinks(instances: readonly ClusterInstance[]): Promise<string[]> {
  const printed = (instance: ClusterInstance) =>
    /\/console#\/setup\/(\w+)\s+valid until (\S+);/.exec(instance.process.stdout()) ?? undefined;
  const found = await Promise.all(
    instances.map((instance) => waitFor(`${instance.name}'s console setup link`, () => printed(instance))),
  );
  return found.sort((a, b) => (b[2] ?? '').localeCompare(a[2] ?? '')).map((match) => match[1] ?? '');
}

/** The first start's console setup, through the API as the owner's browser does it, then an admin token. */
async function adminTokenThrough(instances: readonly ClusterInstance[]): Promise<string> {
  const url = instances[0]?.url ?? '';
  let setUp: Response | undefined;
  for (const token of await setupLinks(instances)) {
    setUp = await fetch(`${url}/api/v1/console/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, organisationName: 'Scale-out clinic', ...OWNER }),
    });
    if (setUp.status === 201) break;
  }
  if (setUp?.status !== 201) throw new Error(`console setup answered ${setUp?.status}: ${await setUp?.text()}`);
  const session = (await setUp.json()) as ConsoleSession;
  const made = await fetch(`${url}/api/v1/admin-tokens`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: (setUp.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
      [CSRF_HEADER]: session.csrfToken,
    },
    body: JSON.stringify({ name: 'scale-out test', role: 'admin' }),
  });
  if (made.status !== 201) throw new Error(`creating an admin token answered ${made.status}: ${await made.text()}`);
  return ((await made.json()) as IssuedAdminToken).secret;
}

/**
 * Three service processes on one fresh PostgreSQL database and the test Redis, sharing one key
 * file as instances on one host would (or a mounted secret on several), with HAProxy in front.
 * `env` is added to every instance's environment.
 */
export async function startCluster(env: Record<string, string>): Promise<Cluster> {
  if (TEST_REDIS_URL === undefined) throw new Error('TEST_REDIS_URL is not set');
  const database = await createTestPostgresDatabase();
  const directory = mkdtempSync(join(tmpdir(), 'cw-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  const proxy = await startHaproxy(ports.map((port) => `127.0.0.1:${port}`));
  const instances: ClusterInstance[] = [];
  const close = async () => {
    await proxy.close();
    for (const instance of instances) {
      instance.process.child.kill('SIGKILL');
      await instance.process.exited;
    }
    await database.dispose();
    rmSync(directory, { recursive: true, force: true });
  };
  const environment = (port: number) => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    // Clients reach the deployment through the proxy: realtime tokens' wsUrl and links point there.
    PUBLIC_BASE_URL: proxy.url,
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL ?? '',
    KEY_FILE: join(directory, 'chartwright.keys.json'),
    SEED_DEMO: 'false',
    // HAProxy connects from 127.0.0.1: its X-Forwarded-For is believed, a client's is not.
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...env,
  });
  /** Starts instance `index` (again) on its port, in its place in `instances`, and waits until it is ready. */
  const launch = async (index: number): Promise<void> => {
    const port = ports[index] ?? 0;
    const url = `http://127.0.0.1:${port}`;
    const service = startServiceProcess(directory, environment(port));
    instances[index] = { name: `instance${index + 1}`, url, process: service };
    await waitForReady(url, service);
  };
  const allUp = async () => {
    const up = Object.fromEntries(instances.map(({ name }) => [name, 'UP']));
    await proxy.waitForServers(up);
    await proxy.waitForServers(up, 'chartwright_realtime');
  };
  try {
    await Promise.all(ports.map((_, index) => launch(index)));
    await allUp();
  } catch (error) {
    await close();
    throw error;
  }

  let adminToken: Promise<string> | undefined;
  return {
    proxy,
    instances,
    heal: async () => {
      const stopped = instances.flatMap(({ process }, index) =>
        process.child.exitCode === null && process.child.signalCode === null ? [] : [index],
      );
      for (const index of stopped) await launch(index);
      await allUp();
    },
    instanceThatLogged: (message, field, value) =>
      waitFor(`a "${message}" line for ${value}`, () =>
        instances.find((instance) =>
          logLines(instance.process).some((line) => line['msg'] === message && line[field] === value),
        ),
      ),
    adminToken: () => (adminToken ??= adminTokenThrough(instances)),
    close,
  };
}
