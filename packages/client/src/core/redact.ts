import { CREDENTIAL_PREFIXES } from '@chartwright/protocol';

const CREDENTIAL_PATTERN = new RegExp(`(${Object.values(CREDENTIAL_PREFIXES).join('|')})[A-Za-z0-9_-]+`, 'g');

/**
 * Keeps only the prefix of anything shaped like a key or token. The service never puts one in a
 * message; this guards text the library passes on from elsewhere (proxies, `ws` errors) too.
 */
export function redactCredentials(text: string): string {
  return text.replace(CREDENTIAL_PATTERN, '$1…');
}
