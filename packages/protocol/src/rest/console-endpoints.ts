import { z } from 'zod';

import { withBodyErrors, type EndpointSpec } from './endpoint-spec.js';
import {
  acceptInvitationRequestSchema,
  completeSetupRequestSchema,
  consoleLinkSchema,
  consoleSessionSchema,
  inspectLinkRequestSchema,
  signInRequestSchema,
  ssoCallbackQuerySchema,
  ssoRedirectSchema,
  startSsoRequestSchema,
} from './console-session.js';

/** The console's operations (its page, sign-in and the management API): none touches patient data. */
export function isConsoleEndpoint(spec: Pick<EndpointSpec, 'tag'>): boolean {
  return spec.tag === 'Console' || spec.tag === 'Management';
}

/** Signing in to the console: open routes, throttled, that answer with a session cookie. */
export const CONSOLE_SESSION_ENDPOINTS = [
  {
    method: 'POST',
    path: '/api/v1/console/setup',
    operationId: 'completeConsoleSetup',
    summary: 'First start: the organisation’s owner sets their e-mail and password with the one-time setup link',
    tag: 'Console',
    auth: 'none',
    requestBody: { schema: completeSetupRequestSchema, required: true },
    success: { status: 201, description: 'The owner, signed in (Set-Cookie).', schema: consoleSessionSchema },
    errors: withBodyErrors('console_link_invalid', 'member_exists', 'rate_limited'),
  },
  {
    method: 'POST',
    path: '/api/v1/console/links/inspect',
    operationId: 'inspectConsoleLink',
    summary: 'What a setup or invitation link is for, before it is used',
    tag: 'Console',
    auth: 'none',
    requestBody: { schema: inspectLinkRequestSchema, required: true },
    success: { status: 200, description: 'The link’s purpose.', schema: consoleLinkSchema },
    errors: withBodyErrors('console_link_invalid', 'rate_limited'),
  },
  {
    method: 'POST',
    path: '/api/v1/console/invitations/accept',
    operationId: 'acceptConsoleInvitation',
    summary: 'Join an organisation with an invitation link, choosing a password',
    tag: 'Console',
    auth: 'none',
    requestBody: { schema: acceptInvitationRequestSchema, required: true },
    success: { status: 201, description: 'The new member, signed in (Set-Cookie).', schema: consoleSessionSchema },
    errors: withBodyErrors('console_link_invalid', 'member_exists', 'rate_limited'),
  },
  {
    method: 'POST',
    path: '/api/v1/console/sessions',
    operationId: 'signInToConsole',
    summary: 'Sign in with e-mail and password',
    tag: 'Console',
    auth: 'none',
    requestBody: { schema: signInRequestSchema, required: true },
    success: {
      status: 201,
      description: 'A new session (Set-Cookie); any earlier cookie is discarded.',
      schema: consoleSessionSchema,
    },
    errors: withBodyErrors('invalid_credentials', 'sso_required', 'rate_limited'),
  },
  {
    method: 'POST',
    path: '/api/v1/console/sso/start',
    operationId: 'startConsoleSso',
    summary: 'Sign in with the organisation’s OpenID provider: where to send the browser',
    tag: 'Console',
    auth: 'none',
    requestBody: { schema: startSsoRequestSchema, required: true },
    success: {
      status: 200,
      description: 'The provider’s authorization URL (PKCE, state, nonce).',
      schema: ssoRedirectSchema,
    },
    errors: withBodyErrors('sso_not_available', 'rate_limited'),
  },
  {
    method: 'GET',
    path: '/api/v1/console/sso/callback',
    operationId: 'completeConsoleSso',
    summary: 'Where the OpenID provider sends the browser back; signs the member in and opens the console',
    tag: 'Console',
    auth: 'none',
    query: { schema: ssoCallbackQuerySchema },
    success: {
      status: 303,
      description: 'To /console (Set-Cookie), or to its sign-in page with `sso_error` when the sign-in failed.',
      schema: z.null(),
    },
    errors: ['invalid_query'],
  },
  {
    method: 'GET',
    path: '/api/v1/console/session',
    operationId: 'getConsoleSession',
    summary: 'The signed-in member, their organisation and the session’s CSRF token',
    tag: 'Console',
    auth: 'console_session',
    success: { status: 200, description: 'The session.', schema: consoleSessionSchema },
    errors: [],
  },
  {
    method: 'DELETE',
    path: '/api/v1/console/session',
    operationId: 'signOutOfConsole',
    summary: 'Sign out of this session',
    tag: 'Console',
    auth: 'console_session',
    success: { status: 204, description: 'Signed out; the cookie is cleared.', schema: z.null() },
    errors: [],
  },
  {
    method: 'DELETE',
    path: '/api/v1/console/sessions',
    operationId: 'signOutEverywhere',
    summary: 'Sign out of every session of the signed-in member',
    tag: 'Console',
    auth: 'console_session',
    success: { status: 204, description: 'Every session of the member ended.', schema: z.null() },
    errors: [],
  },
] as const satisfies readonly EndpointSpec[];
