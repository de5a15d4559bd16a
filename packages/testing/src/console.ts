import { CSRF_HEADER, type ConsoleRole, type ConsoleSession, type IssuedAdminToken } from '@chartwright/protocol';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';

import type { Harness } from './harness.js';

/** A signed-in console session over inject: its cookie on every request, its CSRF token on changes. */
export interface ConsoleBrowser {
  session: ConsoleSession;
  cookie: string;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export const OWNER = { email: 'owner@clinic.example', password: 'correct horse battery staple', name: 'Olive Owner' };

/** The `name=value` of the session cookie an answer set. */
export const sessionCookie = (response: LightMyRequestResponse): string =>
  String(response.headers['set-cookie'] ?? '').split(';')[0] ?? '';

/** The token of a setup or invitation link (its last path segment, after `#/setup/` or `#/invitation/`). */
export const linkToken = (link: string): string => link.slice(link.lastIndexOf('/') + 1);

/** The browser an answer to signing in (setup, invitation, password, SSO) signed in. */
export function browserOf(h: Harness, response: LightMyRequestResponse): ConsoleBrowser {
  if (response.statusCode !== 201) throw new Error(`signing in answered ${response.statusCode}: ${response.body}`);
  const cookie = sessionCookie(response);
  const session = response.json<ConsoleSession>();
  return {
    session,
    cookie,
    request: ({ headers, ...rest }) =>
      h.app.inject({
        ...rest,
        headers: {
          cookie,
          ...(rest.method === undefined || rest.method === 'GET' ? {} : { [CSRF_HEADER]: session.csrfToken }),
          ...headers,
        },
      }),
  };
}

/** The first start, through the API: the setup link, then the owner's e-mail and password. */
export async function setUpOwner(h: Harness, organisationName = 'Harness clinic org'): Promise<ConsoleBrowser> {
  const link = await h.consoleSetupLink();
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/v1/console/setup',
    payload: { token: linkToken(link), organisationName, ...OWNER },
  });
  return browserOf(h, response);
}

/** A member of `role` invited by `owner`, who accepted and is signed in. */
export async function inviteMember(
  h: Harness,
  owner: ConsoleBrowser,
  person: { email: string; role: ConsoleRole; password?: string },
): Promise<ConsoleBrowser> {
  const invited = await owner.request({
    method: 'POST',
    url: '/api/v1/members/invitations',
    payload: { email: person.email, role: person.role },
  });
  if (invited.statusCode !== 201) throw new Error(`inviting answered ${invited.statusCode}: ${invited.body}`);
  const { link } = invited.json<{ link: string }>();
  const accepted = await h.app.inject({
    method: 'POST',
    url: '/api/v1/console/invitations/accept',
    payload: { token: linkToken(link), name: person.email, password: person.password ?? 'a long enough password' },
  });
  return browserOf(h, accepted);
}

export async function signIn(h: Harness, email: string, password: string): Promise<ConsoleBrowser> {
  return browserOf(
    h,
    await h.app.inject({ method: 'POST', url: '/api/v1/console/sessions', payload: { email, password } }),
  );
}

/** An admin token of the owner's organisation, made through the management API. */
export async function createAdminToken(
  owner: ConsoleBrowser,
  role: IssuedAdminToken['token']['role'],
  name = `${role} automation`,
): Promise<IssuedAdminToken> {
  const response = await owner.request({ method: 'POST', url: '/api/v1/admin-tokens', payload: { name, role } });
  if (response.statusCode !== 201) throw new Error(`creating an admin token answered ${response.statusCode}`);
  return response.json<IssuedAdminToken>();
}
