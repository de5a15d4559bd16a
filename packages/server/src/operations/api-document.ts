import { buildOpenApiDocument } from '@chartwright/protocol';

import { SERVICE_VERSION } from '../version.js';

/** An entry of the OpenAPI document's `servers`. */
export interface ApiServer {
  url: string;
  description: string;
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A loopback address (the default, `http://localhost:$PORT`, when PUBLIC_BASE_URL is unset) is
 * right only for a client on this machine, which fetched the document from it: it is published as
 * `/`, the address the document was fetched from, which is right wherever the client is.
 */
function published(baseUrl: string): string {
  return LOOPBACK_HOSTS.test(new URL(baseUrl).hostname) ? '/' : baseUrl;
}

/**
 * The OpenAPI document's servers: `{base_url}` (PUBLIC_BASE_URL) for sk_live_ keys and
 * `{sandbox_base_url}` (SANDBOX_BASE_URL) for sk_test_ keys; one entry when both are one address.
 */
export function apiServers(urls: { publicBaseUrl: string; sandboxBaseUrl: string }): ApiServer[] {
  const production = published(urls.publicBaseUrl);
  const sandbox = published(urls.sandboxBaseUrl);
  if (production === sandbox) {
    return [
      { url: production, description: 'Production (sk_live_ keys) and sandbox (sk_test_ keys): the key decides which' },
    ];
  }
  return [
    { url: production, description: 'Production (sk_live_ keys)' },
    { url: sandbox, description: 'Sandbox (sk_test_ keys)' },
  ];
}

/** The OpenAPI document this service serves at /api/v1/openapi.json, for its configured addresses. */
export function apiDocument(urls: { publicBaseUrl: string; sandboxBaseUrl: string }): Record<string, unknown> {
  return buildOpenApiDocument({ version: SERVICE_VERSION, servers: apiServers(urls) });
}
