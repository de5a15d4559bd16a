import { shuttingDown } from '../http/draining.js';
import { route, type Area } from '../http/route.js';

export type ReadinessCheck = () => Promise<void>;

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
  /** The OpenAPI document to serve (operations/api-document.ts). */
  apiDocument: () => Record<string, unknown>;
}

/** Liveness, readiness and the OpenAPI document. */
export function operationsRoutes(open: Area<'none', null>, options: OperationsOptions): void {
  route(open, 'liveness', () => ({ status: 'ok' }));

  route(open, 'readiness', async ({ request, reply }) => {
    if (options.leaving()) throw shuttingDown();
    const run = (checks: Readonly<Record<string, ReadinessCheck>>) =>
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
    const [required, features] = await Promise.all([run(options.readinessChecks), run(options.featureChecks)]);
    const ready = required.every(([, state]) => state === 'ok');
    reply.code(ready ? 200 : 503).header('cache-control', 'no-store');
    return { status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries([...required, ...features]) };
  });

  // Built on first request, then kept: it depends only on the schemas and the configured addresses,
  // and building it (a JSON Schema per component, in both directions) would slow every start.
  let document: Record<string, unknown> | undefined;
  route(open, 'openApiDocument', () => {
    document ??= options.apiDocument();
    return document;
  });
}
