import { ChartwrightError } from '../errors.js';

/**
 * An id the caller gave, encoded as one path segment. An empty one would send the call to another
 * route, so it fails here, before any request.
 */
export function segment(value: unknown, method: string, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new ChartwrightError(`${method}: ${name} must be a non-empty string.`, 'invalid_argument');
  }
  return encodeURIComponent(value);
}

/**
 * `path?name=value…` with the parameters given; the service checks their values (`invalid_query`).
 * Every query parameter of the API is a string or a number; anything else (undefined) is left out.
 */
export function withQuery(path: string, query: unknown, method: string): string {
  if (query === undefined) return path;
  if (typeof query !== 'object' || query === null) {
    throw new ChartwrightError(`${method}: params must be an object.`, 'invalid_argument');
  }
  const entries = Object.entries(query).flatMap(([name, value]: [string, unknown]) =>
    typeof value === 'string' || typeof value === 'number' ? [[name, String(value)]] : [],
  );
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries).toString()}`;
}
