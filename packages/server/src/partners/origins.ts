/** Embedding origins of partners: what may stand in CSP frame-ancestors and as a postMessage origin. */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/**
 * One host: a DNS name of letter-digit-hyphen labels, an IPv4 address, or a bracketed IPv6 one.
 * Nothing a CSP source list reads as syntax (a `*` wildcard, a `;`) can pass.
 */
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])$`);

/**
 * Why `value` is not an exact embedding origin (`scheme://host[:port]`, as browsers report
 * `event.origin` and as CSP frame-ancestors matches it), or null when it is one: https, or http for
 * localhost alone, where EMR developers test; one lowercase host, no wildcard; no path, not even a
 * trailing slash; no default port, query, fragment or credentials.
 */
export function originProblem(value: string): string | null {
  if (!URL.canParse(value)) return 'is not an origin such as https://emr.example.com';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https://';
  if (!HOST.test(url.hostname)) return 'must name one host: wildcards are not allowed, list each origin';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'must use https (plain http is allowed for localhost only)';
  }
  if (url.origin !== value) {
    return `must be exactly scheme://host[:port], with a lowercase host and no path or trailing slash, e.g. ${url.origin}`;
  }
  return null;
}
