import { SSO_ERRORS, type SsoError } from '@chartwright/protocol';

/**
 * The console's pages are `#/…` fragments of the one page at /console, so a setup or invitation
 * link's token never reaches the server in a URL (a fragment is never sent, nor put in a Referer).
 */
export type Route =
  | { page: 'setup'; token: string }
  | { page: 'invitation'; token: string }
  /** `ssoError`: why a single sign-on just failed, as the service's callback says in `?sso_error=`. */
  | { page: 'sign-in'; ssoError?: SsoError }
  | { page: 'projects' }
  | { page: 'keys'; projectId: string }
  | { page: 'partners'; projectId: string }
  | { page: 'usage' }
  | { page: 'audit' }
  | { page: 'members' }
  | { page: 'organisation' }
  | { page: 'admin-tokens' }
  | { page: 'not-found' };

/** The pages reached without a session: the links that make one, and signing in. */
export const isOpenRoute = (route: Route): boolean =>
  route.page === 'setup' || route.page === 'invitation' || route.page === 'sign-in';

const SIMPLE_PAGES = ['projects', 'usage', 'audit', 'members', 'organisation', 'admin-tokens'] as const;

function decoded(segment: string): string | null {
  try {
    const value = decodeURIComponent(segment);
    return value === '' ? null : value;
  } catch {
    return null;
  }
}

/** The sign-in page, with the reason a single sign-on failed when the query names one it knows. */
function signInRoute(query: string): Route {
  const named = new URLSearchParams(query).get('sso_error');
  const ssoError = SSO_ERRORS.find((candidate) => candidate === named);
  return ssoError === undefined ? { page: 'sign-in' } : { page: 'sign-in', ssoError };
}

/** The route of a location's hash (`#/projects/prj_1/keys`); an empty hash is the projects page. */
export function parseRoute(hash: string): Route {
  const [target = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const path = target.replace(/\/+$/, '');
  if (path === '') return { page: 'projects' };
  const segments = path.split('/');
  const [first, second, third] = segments.map(decoded);
  if (segments.length === 1) {
    if (first === 'sign-in') return signInRoute(query);
    const page = SIMPLE_PAGES.find((candidate) => candidate === first);
    return page === undefined ? { page: 'not-found' } : { page };
  }
  if (segments.length === 2 && second !== null && second !== undefined) {
    if (first === 'setup') return { page: 'setup', token: second };
    if (first === 'invitation') return { page: 'invitation', token: second };
  }
  if (segments.length === 3 && first === 'projects' && second !== null && second !== undefined) {
    if (third === 'keys') return { page: 'keys', projectId: second };
    if (third === 'partners') return { page: 'partners', projectId: second };
  }
  return { page: 'not-found' };
}

/** The `#/…` address of a route. */
export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'setup':
    case 'invitation':
      return `#/${route.page}/${encodeURIComponent(route.token)}`;
    case 'keys':
    case 'partners':
      return `#/projects/${encodeURIComponent(route.projectId)}/${route.page}`;
    case 'not-found':
      return '#/projects';
    case 'sign-in':
      return route.ssoError === undefined ? '#/sign-in' : `#/sign-in?sso_error=${route.ssoError}`;
    case 'projects':
    case 'usage':
    case 'audit':
    case 'members':
    case 'organisation':
    case 'admin-tokens':
      return `#/${route.page}`;
  }
}
