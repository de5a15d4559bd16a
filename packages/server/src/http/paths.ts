import type { EndpointSpec } from '@chartwright/protocol';

/** OpenAPI `{param}` segments in Fastify's `:param` form. */
export function fastifyPath(spec: Pick<EndpointSpec, 'path'>): string {
  return spec.path.replace(/\{([^}]+)\}/g, ':$1');
}
