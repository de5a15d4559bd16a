import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One POST the receiver got, exactly as it came. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with. */
  status: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` or `https://localhost:<port>`. */
  url: string;
  readonly received: readonly ReceivedWebhook[];
  close(): Promise<void>;
}

export interface WebhookReceiverOptions {
  /** Serve https with this key and certificate. */
  tls?: { key: string; cert: string };
  /** The status for each POST, given how many came to its path before; default 200. */
  status?: (path: string, earlier: number) => number;
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.once('error', reject);
  });
}

/**
 * A receiver of webhooks on this machine: the test double of a customer's endpoint (a third-party
 * service). It records every POST and answers with the status the test chooses.
 */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const handler = (request: IncomingMessage, response: import('node:http').ServerResponse) => {
    void bodyOf(request).then((body) => {
      const path = request.url ?? '/';
      const earlier = received.filter((entry) => entry.path === path).length;
      const status = options.status?.(path, earlier) ?? 200;
      received.push({ path, headers: request.headers, body, status });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  };
  const server: Server =
    options.tls === undefined ? createHttpServer(handler) : createHttpsServer(options.tls, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: options.tls === undefined ? `http://127.0.0.1:${port}` : `https://localhost:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A throwaway self-signed certificate for `localhost` and 127.0.0.1 (openssl, as Debian ships it). */
export function selfSignedCertificate(): { key: string; cert: string; certPath: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'chartwright-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(keyPath, 'utf8'),
    cert: readFileSync(certPath, 'utf8'),
    certPath,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
