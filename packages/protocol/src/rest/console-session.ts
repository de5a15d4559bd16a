import { z } from 'zod';

import { CONSOLE_PASSWORD_MAX_LENGTH, CONSOLE_PASSWORD_MIN_LENGTH, CSRF_HEADER } from '../console/constants.js';
import { CONSOLE_ROLES } from '../console/roles.js';
import { componentRegistry } from './registry.js';
import { memberSchema } from './management.js';

/**
 * Signing in to the console: the first-start setup link, invitations, passwords and the session
 * cookie. A session answers with its CSRF token, which every changing request sends back in
 * `X-CSRF-Token`.
 */

const password = z
  .string()
  .min(CONSOLE_PASSWORD_MIN_LENGTH, `must be at least ${CONSOLE_PASSWORD_MIN_LENGTH} characters`)
  .max(CONSOLE_PASSWORD_MAX_LENGTH);
const linkToken = z
  .string()
  .min(16)
  .max(200)
  .describe('The token from the one-time link (its last path segment after `#/setup/` or `#/invitation/`).');
const personName = z.string().trim().min(1).max(200);
const email = z.email().max(254);

export const completeSetupRequestSchema = z
  .strictObject({ token: linkToken, organisationName: personName, name: personName, email, password })
  .register(componentRegistry, { id: 'CompleteSetupRequest' });
export type CompleteSetupRequest = z.input<typeof completeSetupRequestSchema>;

export const inspectLinkRequestSchema = z
  .strictObject({ token: linkToken })
  .register(componentRegistry, { id: 'InspectConsoleLinkRequest' });

export const consoleLinkSchema = z
  .object({
    kind: z.enum(['setup', 'invitation']),
    organisationName: z.string(),
    email: z.string().nullable().describe('Who was invited; null for the setup link.'),
    role: z.enum(CONSOLE_ROLES),
    expiresAt: z.string(),
  })
  .register(componentRegistry, { id: 'ConsoleLink' });
export type ConsoleLink = z.infer<typeof consoleLinkSchema>;

export const acceptInvitationRequestSchema = z
  .strictObject({ token: linkToken, name: personName, password })
  .register(componentRegistry, { id: 'AcceptInvitationRequest' });
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequestSchema>;

export const signInRequestSchema = z
  .strictObject({ email: z.string().max(254), password: z.string().max(CONSOLE_PASSWORD_MAX_LENGTH) })
  .register(componentRegistry, { id: 'SignInRequest' });
export type SignInRequest = z.input<typeof signInRequestSchema>;

export const consoleSessionSchema = z
  .object({
    member: memberSchema,
    organisation: z.object({ id: z.string(), name: z.string() }),
    csrfToken: z.string().describe(`Send it back in ${CSRF_HEADER} on every POST, PATCH and DELETE.`),
    expiresAt: z.string().describe('The session ends then whatever happens (absolute expiry).'),
    idleTimeoutSeconds: z.int().describe('The session also ends after this long without a request.'),
  })
  .register(componentRegistry, { id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof consoleSessionSchema>;

export const startSsoRequestSchema = z
  .strictObject({ email: z.string().max(254) })
  .register(componentRegistry, { id: 'StartSsoRequest' });
export type StartSsoRequest = z.input<typeof startSsoRequestSchema>;

export const ssoRedirectSchema = z
  .object({
    authorizationUrl: z.string().describe('Send the browser here: the organisation’s OpenID provider.'),
  })
  .register(componentRegistry, { id: 'SsoRedirect' });
export type SsoRedirect = z.infer<typeof ssoRedirectSchema>;

/**
 * What the provider sends back to the callback (OpenID Connect Core 3.1.2.5–6). Providers add
 * parameters of their own (`iss`, `session_state`), so unknown ones are kept, not refused.
 */
export const ssoCallbackQuerySchema = z.looseObject({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(200).optional(),
});
