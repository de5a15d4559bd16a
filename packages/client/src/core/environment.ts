import { CLIENT_VERSION } from './version.js';

/**
 * Where the library runs. A page has `window.document`; a web worker (dedicated, shared or service)
 * has `importScripts` and no window. Both are browsers: same-origin rules, no secret storage, no
 * custom User-Agent. Node (and Deno or Bun, which define neither) are servers. Checking `document`
 * rather than `window` alone keeps test setups and server code that define a bare `window` global
 * on the server side.
 */
export function detectBrowser(scope: object = globalThis): boolean {
  const global = scope as { window?: { document?: unknown }; importScripts?: unknown; document?: unknown };
  const isPage = typeof global.window === 'object' && typeof global.window.document === 'object';
  const isWorker = typeof global.importScripts === 'function' && typeof global.document === 'undefined';
  return isPage || isWorker;
}

/** `node/v20.20.2`, `deno/2.1.0`, … for the `x-chartwright-client` header; `undefined` when unknown. */
export function serverRuntime(scope: object = globalThis): string | undefined {
  const global = scope as {
    process?: { versions?: { node?: unknown; bun?: unknown } };
    Deno?: { version?: { deno?: unknown } };
  };
  const deno = global.Deno?.version?.deno;
  if (typeof deno === 'string') return `deno/${deno}`;
  const bun = global.process?.versions?.bun;
  if (typeof bun === 'string') return `bun/${bun}`;
  const node = global.process?.versions?.node;
  if (typeof node === 'string') return `node/v${node}`;
  return undefined;
}

/**
 * Every REST request's own headers, below the caller's defaults: in Node, the library and runtime,
 * for the service's logs (browsers forbid setting User-Agent, so nothing there).
 */
export function clientHeaders(isBrowser: boolean, defaults: Record<string, string>): Record<string, string> {
  if (isBrowser) return { ...defaults };
  const runtime = serverRuntime();
  return {
    'x-chartwright-client': `chartwright-client-js/${CLIENT_VERSION}${runtime === undefined ? '' : ` ${runtime}`}`,
    ...defaults,
  };
}
