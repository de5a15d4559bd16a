import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One mismatch Prism found between a request or response and the OpenAPI document. */
export interface Violation {
  /** `['request', 'body', 'name']`, `['response', 'body', 'templates', '0', 'id']`, `['response']`… */
  readonly location: readonly string[];
  readonly severity: string;
  readonly message: string;
}

/** An answer that came through the proxy, with what Prism found wrong with the exchange. */
export interface CheckedAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly requestViolations: readonly Violation[];
  readonly responseViolations: readonly Violation[];
}

export interface ValidatingProxy {
  /** Sends a request to the service through Prism. `path` starts with `/`. */
  fetch(path: string, init?: RequestInit): Promise<CheckedAnswer>;
  close(): Promise<void>;
}

const prismCli = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist');

/**
 * Stoplight Prism's `prism proxy` in front of a listening service: it forwards every request
 * unchanged, checks the request and the response against the OpenAPI document at `documentPath`,
 * and names each mismatch in the response's `sl-violations` header (status not documented, body
 * not matching its schema, content type not declared, required parameter missing…).
 */
export async function startValidatingProxy(documentPath: string, upstream: string): Promise<ValidatingProxy> {
  const child = spawn(
    process.execPath,
    [join(prismCli, 'index.js'), 'proxy', documentPath, upstream, '--port', '0', '--host', '127.0.0.1', '--cors=false'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  let starting = true;
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      // Kept only until Prism says where it listens; after that its request log is drained unread.
      if (!starting) return;
      output += chunk;
      const address = /Prism is listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (address !== undefined) resolve(address);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (starting) output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`prism proxy exited (${code}): ${output.slice(-2000)}`)));
  });
  const base = await listening;
  starting = false;
  return {
    fetch: async (path, init = {}) => {
      const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
      const text = await response.text();
      const violations = parseViolations(response.headers.get('sl-violations'));
      return {
        status: response.status,
        headers: response.headers,
        text,
        requestViolations: violations.filter((violation) => violation.location[0] === 'request'),
        responseViolations: violations.filter((violation) => violation.location[0] !== 'request'),
      };
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function parseViolations(header: string | null): Violation[] {
  if (header === null) return [];
  // Prism cuts a header over 8 KB and says so; the cut list is still a failure, named as one.
  if (!header.startsWith('[')) return [{ location: ['response'], severity: 'Error', message: header.slice(0, 500) }];
  return JSON.parse(header) as Violation[];
}
