import { buildOpenApiDocument, endpoint, type Health } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import { fastifyPath } from './paths.js';

export type ReadinessCheck = () => Promise<void>;

export interface OperationsOptions {
  /** Dependencies the service cannot serve without: any failing makes the instance not ready. */
  readinessChecks: Readonly<Record<string, ReadinessCheck>>;
  /**
   * Features reported beside them that do not decide readiness: without a speech recognizer the
   * REST API still works, so an instance lacking one must keep its REST traffic.
   */
  featureChecks: Readonly<Record<string, ReadinessCheck>>;
  version: string;
  servers: readonly { url: string; description: string }[];
}

/** Liveness, readiness and the OpenAPI document: the unauthenticated routes. */
export function operationsRoutes(app: FastifyInstance, options: OperationsOptions): void {
  app.get(fastifyPath(endpoint('liveness')), (): Health => ({ status: 'ok' }));

  app.get(fastifyPath(endpoint('readiness')), async (request, reply) => {
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
    const body: Health = {
      status: ready ? 'ok' : 'unavailable',
      checks: Object.fromEntries([...required, ...features]),
    };
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  });

  // Built once: the document depends only on the schemas and the configured servers.
  const document = buildOpenApiDocument({ version: options.version, servers: options.servers });
  app.get(fastifyPath(endpoint('openApiDocument')), () => document);
}
