import type { FastifyReply, FastifyRequest } from 'fastify';

import { shuttingDown } from '../http/draining.js';
import { route, type Area } from '../http/route.js';

export type ReadinessCheck = () => Promise<void>;
/** A check's name and how it went. */
type Check = readonly [string, 'ok' | 'unavailable'];

export interface OperationsOptions {
  /** True once the instance is leaving its load balancer (SIGTERM): not ready, whatever the checks say. */
  leaving: () => boolean;
  /** Dependencies the service cannot serve without: any failing makes the instance not ready. */
  readinessChecks: Readonly<Record<string, ReadinessCheck>>;
  /**
   * Features reported beside them that do not decide readiness: without a speech recognizer the
   * REST API still works, so an instance lacking one must keep its REST traffic.
   */
  featureChecks: Readonly<Record<string, ReadinessCheck>>;
  /** Whether a new realtime socket would be admitted (the instance's cap and its recognizer's room). */
  realtimeRoom: () => boolean;
  /** The OpenAPI document to serve (operations/api-document.ts). */
  apiDocument: () => Record<string, unknown>;
}

/** Liveness, readiness and the OpenAPI document. */
export function operationsRoutes(open: Area<'none', null>, options: OperationsOptions): void {
  route(open, 'liveness', () => ({ status: 'ok' }));

  const run = (request: FastifyRequest, checks: Readonly<Record<string, ReadinessCheck>>) =>
    Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch (error) {
          request.log.warn({ err: error, check: name }, 'readiness check failed');
          return [name, 'unavailable'] as const;
        }
      }),
    );
  const runAll = (request: FastifyRequest) =>
    Promise.all([run(request, options.readinessChecks), run(request, options.featureChecks)]);
  /** The checks `deciding` make the answer 200 or 503; the `reported` ones are listed beside them. */
  const report = (reply: FastifyReply, deciding: readonly Check[], reported: readonly Check[] = []) => {
    const ready = deciding.every(([, state]) => state === 'ok');
    reply.code(ready ? 200 : 503).header('cache-control', 'no-store');
    return { status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries([...deciding, ...reported]) } as const;
  };

  route(open, 'readiness', async ({ request, reply }) => {
    if (options.leaving()) throw shuttingDown();
    const [required, features] = await runAll(request);
    return report(reply, required, features);
  });

  // Every check decides here: a load balancer's realtime backend sends new sockets only where they
  // would be served, and the sockets it already holds carry on wherever they are.
  route(open, 'realtimeReadiness', async ({ request, reply }) => {
    if (options.leaving()) throw shuttingDown();
    const [required, features] = await runAll(request);
    const capacity: Check = ['capacity', options.realtimeRoom() ? 'ok' : 'unavailable'];
    return report(reply, [...required, ...features, capacity]);
  });

  // Built on first request, then kept: it depends only on the schemas and the configured addresses,
  // and building it (a JSON Schema per component, in both directions) would slow every start.
  let document: Record<string, unknown> | undefined;
  route(open, 'openApiDocument', () => {
    document ??= options.apiDocument();
    return document;
  });
}
