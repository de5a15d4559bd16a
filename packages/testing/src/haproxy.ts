import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { waitFor } from './wait.js';
import { freePort } from './widget-service.js';

/** The configuration operators run (deploy/haproxy/haproxy.cfg), used as it is. */
export const HAPROXY_CONFIG = fileURLToPath(new URL('../../../deploy/haproxy/haproxy.cfg', import.meta.url));

/** Debian installs HAProxy in /usr/sbin, which an unprivileged user's PATH may lack. */
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path)) ?? 'haproxy';

/**
 * What the load-balancer tests need and this machine lacks. Locally they are skipped when it is
 * missing; in CI (.ci/run installs it) a missing HAProxy fails the run instead.
 */
export function missingHaproxy(): string[] {
  const found = spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).status === 0;
  if (found) return [];
  if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error('the load-balancer tests may not be skipped in CI; install HAProxy: apt-get install -y haproxy');
  }
  return ['haproxy'];
}

/** A server's state on HAProxy's status page: `UP`, `DOWN`, or a transition such as `DOWN 1/2`. */
export type ServerStates = Record<string, string>;

/** The configuration's backends: the REST API and pages, and the realtime WebSockets. */
export type Backend = 'chartwright' | 'chartwright_realtime';

export interface Haproxy {
  /** `http://127.0.0.1:<port>`: where clients connect. */
  url: string;
  /** The state of each server of a backend (`chartwright`, or `chartwright_realtime`), from the status page. */
  servers(backend?: Backend): Promise<ServerStates>;
  /** Waits until every named server of the backend has the given state (checks run each second). */
  waitForServers(expected: ServerStates, backend?: Backend): Promise<void>;
  /** What HAProxy wrote: its log lines and any alert. */
  output(): string;
  close(): Promise<void>;
}

/** The status page's CSV as rows of named columns. */
function parseCsv(text: string): Record<string, string>[] {
  const [header = '', ...lines] = text.trim().split('\n');
  const names = header.replace(/^# /, '').split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(names.map((name, index) => [name, cells[index] ?? '']));
  });
}

/**
 * HAProxy with the checked-in configuration in front of `instances` (`host:port` each, three as
 * the configuration names), on free ports of 127.0.0.1.
 */
export async function startHaproxy(instances: readonly string[]): Promise<Haproxy> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const env = {
    PATH: process.env['PATH'] ?? '',
    CHARTWRIGHT_BIND: `127.0.0.1:${port}`,
    CHARTWRIGHT_HAPROXY_STATS: `127.0.0.1:${statsPort}`,
    ...Object.fromEntries(instances.map((address, index) => [`CHARTWRIGHT_INSTANCE_${index + 1}`, address])),
  };
  // -db: stay in the foreground, so the test owns the process.
  const child = spawn(HAPROXY, ['-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const statsUrl = `http://127.0.0.1:${statsPort}/`;
  try {
    await waitFor(
      () => `haproxy to start: ${output}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
        const answered = await fetch(statsUrl).then(
          () => true,
          () => false,
        );
        return answered || undefined;
      },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  const servers = async (backend: Backend = 'chartwright'): Promise<ServerStates> => {
    const rows = parseCsv(await (await fetch(`${statsUrl};csv`)).text());
    return Object.fromEntries(
      rows
        .filter((row) => row['pxname'] === backend && !['FRONTEND', 'BACKEND'].includes(row['svname'] ?? ''))
        .map((row) => [row['svname'] ?? '', row['status'] ?? '']),
    );
  };
  const waitForServers = async (expected: ServerStates, backend: Backend = 'chartwright'): Promise<void> => {
    let seen: ServerStates = {};
    await waitFor(
      () => `haproxy's ${backend} servers to be ${JSON.stringify(expected)}, not ${JSON.stringify(seen)}`,
      async () => {
        seen = await servers(backend);
        return Object.entries(expected).every(([name, state]) => seen[name] === state) || undefined;
      },
    );
  };
  return {
    url: `http://127.0.0.1:${port}`,
    servers,
    waitForServers,
    output: () => output,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
