import { describe, expect, it } from 'vitest';

import { hrefOf, isOpenRoute, parseRoute, type Route } from './router.js';

describe('parseRoute', () => {
  it('reads every page of the console from its fragment', () => {
    expect(parseRoute('')).toEqual({ page: 'projects' });
    expect(parseRoute('#/')).toEqual({ page: 'projects' });
    expect(parseRoute('#/projects')).toEqual({ page: 'projects' });
    expect(parseRoute('#/usage/')).toEqual({ page: 'usage' });
    expect(parseRoute('#/setup/AbC123')).toEqual({ page: 'setup', token: 'AbC123' });
    expect(parseRoute('#/invitation/xYz')).toEqual({ page: 'invitation', token: 'xYz' });
    expect(parseRoute('#/projects/proj_1/keys')).toEqual({ page: 'keys', projectId: 'proj_1' });
    expect(parseRoute('#/projects/proj%201/partners')).toEqual({ page: 'partners', projectId: 'proj 1' });
    expect(parseRoute('#/organisation')).toEqual({ page: 'organisation' });
  });

  it('reads why a single sign-on failed from the sign-in page’s query, and only reasons it knows', () => {
    expect(parseRoute('#/sign-in?sso_error=not_a_member')).toEqual({ page: 'sign-in', ssoError: 'not_a_member' });
    expect(parseRoute('#/sign-in?sso_error=provider_error&x=1')).toEqual({
      page: 'sign-in',
      ssoError: 'provider_error',
    });
    expect(parseRoute('#/sign-in?sso_error=<script>')).toEqual({ page: 'sign-in' });
    expect(parseRoute('#/sign-in')).toEqual({ page: 'sign-in' });
    expect(parseRoute('#/members?tab=1')).toEqual({ page: 'members' });
  });

  it('answers not-found for anything else, malformed escapes included', () => {
    for (const hash of [
      '#/nope',
      '#/setup',
      '#/setup/',
      '#/projects/p/secrets',
      '#/projects/%E0%A4%A/keys',
      '#/a/b/c/d',
    ]) {
      expect(parseRoute(hash), hash).toEqual({ page: 'not-found' });
    }
  });

  it('round-trips every route through its address', () => {
    const routes: Route[] = [
      { page: 'setup', token: 't0k3n' },
      { page: 'invitation', token: 'inv' },
      { page: 'sign-in' },
      { page: 'sign-in', ssoError: 'email_not_verified' },
      { page: 'projects' },
      { page: 'keys', projectId: 'proj/with slash' },
      { page: 'partners', projectId: 'proj_2' },
      { page: 'usage' },
      { page: 'audit' },
      { page: 'members' },
      { page: 'organisation' },
      { page: 'admin-tokens' },
    ];
    for (const route of routes) expect(parseRoute(hrefOf(route))).toEqual(route);
  });

  it('needs no session for the links that make one, nor for signing in', () => {
    expect(isOpenRoute({ page: 'setup', token: 't' })).toBe(true);
    expect(isOpenRoute({ page: 'sign-in' })).toBe(true);
    expect(isOpenRoute({ page: 'keys', projectId: 'p' })).toBe(false);
  });
});
