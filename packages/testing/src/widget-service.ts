import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Recognizer } from '@chartwright/server/internal/asr/recognizer.js';
import { createHarness, type Harness } from './harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The builds a browser test loads: the widget app the service serves, the embed helper, the demo EMR's page. */
export function buildForBrowserTests(): void {
  for (const script of [
    'packages/widget/scripts/build.mjs',
    'packages/embed/scripts/build.mjs',
    'examples/emr-demo/scripts/build.mjs',
  ]) {
    execFileSync(process.execPath, [join(root, script), '--if-stale'], { stdio: 'inherit' });
  }
}

/** A port free right now, for a server whose address must be known before it starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export interface WidgetService {
  harness: Harness;
  /** `http://127.0.0.1:<port>`: the service, and the widget's origin. */
  url: string;
  /** The widget page. */
  widgetUrl: string;
  /**
   * Moves the service's clock by each step right after the next token mints, one step per mint, so
   * a page loads the widget with a token that is about to expire (or is over) by the service's time.
   */
  afterNextMints(...stepsMs: number[]): void;
  close(): Promise<void>;
}

/**
 * The real service on 127.0.0.1 serving the built widget app at /widget, with the offline
 * recognizer when given. Its addresses are its own (the PDF links and realtime URLs a browser
 * follows point to it), its clock starts at the real time and moves only when a test moves it, and
 * the token endpoint's rate limit is out of the way of tests that mint many tokens.
 */
export async function startWidgetService(options: { recognizer?: Recognizer } = {}): Promise<WidgetService> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const steps: number[] = [];
  let harness: Harness | null = null;
  harness = await createHarness({
    ...(options.recognizer === undefined ? {} : { recognizer: options.recognizer }),
    config: {
      publicBaseUrl: url,
      sandboxBaseUrl: url,
      widgetBaseUrl: url,
      // The harness clock stands still, so a whole browser run falls in one rate-limit window.
      widgetTokenRateLimitPerMinute: 10_000,
      widgetApiRateLimitPerClinicianPerMinute: 100_000,
      widgetApiRateLimitPerPartnerPerMinute: 100_000,
    },
    configure: (app) => {
      app.addHook('onSend', async (request, reply, payload) => {
        const step = request.url === '/api/widget/token' && reply.statusCode === 200 ? steps.shift() : undefined;
        if (step !== undefined) harness?.clock.advance(step);
        return payload;
      });
    },
  });
  harness.clock.advance(Date.now() - harness.clock.now());
  await harness.app.listen({ port, host: '127.0.0.1' });
  const service = harness;
  return {
    harness: service,
    url,
    widgetUrl: `${url}/widget`,
    afterNextMints: (...stepsMs) => steps.push(...stepsMs),
    close: () => service.close(),
  };
}

/** How many requests the service has logged for `method` on a path matching `path`. */
export function requestsTo(service: WidgetService, method: string, path: RegExp): number {
  return service.harness.logs.lines.filter((line) => {
    // The service logs each request once, when it is answered (http/request-log.ts).
    const logged = JSON.parse(line) as { msg?: string; method?: string; path?: string };
    if (logged.msg !== 'request completed' && logged.msg !== 'request errored') return false;
    return logged.method === method && path.test(logged.path ?? '');
  }).length;
}
