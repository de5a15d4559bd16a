import type { FastifyInstance, FastifyRequest } from 'fastify';

import { AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every method and path registered so far (HEAD included), in Fastify's `:param` syntax. */
    knownRoutes(): { method: string; url: string }[];
    /**
     * Why no route takes the request: 404 for an unknown path, 405 with Allow for a known path and
     * another method (Fastify alone answers both with 404).
     */
    routeMiss(request: FastifyRequest): AppError;
  }
}

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

function patternOf(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/** Records every route of the service as it is registered, in whichever context. */
export function registerRouteTable(app: FastifyInstance): void {
  const paths = new Map<string, KnownPath>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = paths.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of methods) known.methods.add(method);
    paths.set(route.url, known);
  });
  app.decorate('knownRoutes', () =>
    [...paths].flatMap(([url, known]) => [...known.methods].map((method) => ({ method, url }))),
  );
  app.decorate('routeMiss', (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = new Set<string>();
    for (const known of paths.values()) {
      if (known.pattern.test(path)) for (const method of known.methods) allowed.add(method);
    }
    if (allowed.size === 0) return new AppError('route_not_found', `No route matches ${request.method} ${path}.`);
    const allow = [...allowed].sort().join(', ');
    return new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allow}.`, {
      headers: { allow },
    });
  });
}
