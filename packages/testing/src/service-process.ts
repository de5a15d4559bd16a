import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { waitFor } from './wait.js';

/** The built entry point, exactly what `npm start` runs (the test command builds before testing). */
export const SERVICE_MAIN = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));

/** A service started as its own process, as an operator starts it. */
export interface ServiceProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code; null when a signal ended the process. */
  exited: Promise<number | null>;
}

/**
 * Starts the built service (or another `entry`, such as `npm start`'s script) in `cwd` with only
 * `env` (and PATH) in its environment, so nothing of the test process's configuration leaks in.
 * Logs at `warn` unless `env` says otherwise; `nodeArgs` go to Node before the entry.
 */
export function startServiceProcess(
  cwd: string,
  env: Record<string, string>,
  entry = SERVICE_MAIN,
  nodeArgs: readonly string[] = [],
): ServiceProcess {
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Waits until `baseUrl/readyz` answers 200; fails at once if the process exits first. */
export async function waitForReady(baseUrl: string, started: ServiceProcess): Promise<void> {
  await waitFor(
    () => `${baseUrl} to be ready: ${started.stderr()}`,
    async () => {
      if (started.child.exitCode !== null || started.child.signalCode !== null) {
        throw new Error(`service exited: ${started.stderr()}`);
      }
      const ready = await fetch(`${baseUrl}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      return ready || undefined;
    },
  );
}
