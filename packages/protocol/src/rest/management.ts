import { z } from 'zod';

import { ADMIN_TOKEN_ROLES, CONSOLE_ROLES } from '../console/roles.js';
import { ENVIRONMENTS } from '../credentials.js';
import { LIMITS } from '../limits.js';
import { componentRegistry } from './registry.js';

/**
 * The management API (console sessions and admin tokens only): projects, their keys and partners,
 * members, admin tokens, usage and the audit log. Secrets appear once, in the answer that made them.
 */

const isoTime = (what: string) => z.string().describe(`${what} (ISO 8601).`);
const name = (max: number) => z.string().trim().min(1).max(max);
const environment = z.enum(ENVIRONMENTS).describe('`test` (sandbox, sk_test_) or `live` (production, sk_live_).');
const graceSeconds = z
  .int()
  .min(0)
  .max(LIMITS.rotationGraceMaxSeconds)
  .optional()
  .describe('How long the old secret keeps working; default KEY_ROTATION_GRACE_SECONDS (one day).');

export const consoleActorSchema = z
  .object({
    kind: z.enum(['console_member', 'admin_token', 'cli']),
    id: z.string().nullable(),
    label: z.string().describe('The member’s e-mail or the token’s name, as it was when they acted.'),
  })
  .register(componentRegistry, { id: 'ConsoleActor', description: 'Who created a credential.' });
export type ConsoleActor = z.infer<typeof consoleActorSchema>;

export const projectSchema = z
  .object({ id: z.string(), name: z.string(), createdAt: isoTime('Created') })
  .register(componentRegistry, { id: 'Project' });
export type Project = z.infer<typeof projectSchema>;
export const projectListSchema = z.array(projectSchema).register(componentRegistry, { id: 'ProjectList' });

export const createProjectRequestSchema = z
  .strictObject({ name: name(200) })
  .register(componentRegistry, { id: 'CreateProjectRequest' });
export type CreateProjectRequest = z.input<typeof createProjectRequestSchema>;

export const apiKeySchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    environment,
    name: z.string(),
    hint: z.string().describe('The key’s prefix and last four characters; the key itself is never shown again.'),
    status: z.enum(['active', 'grace', 'expired', 'revoked']),
    createdAt: isoTime('Created'),
    createdBy: consoleActorSchema.nullable().describe('Null for keys made before the console existed.'),
    lastUsedAt: isoTime('Last used, to the hour').nullable(),
    expiresAt: isoTime('End of the grace period of a rotated key').nullable(),
    revokedAt: isoTime('Revoked').nullable(),
    replacedBy: z.string().nullable(),
    rotationRecommended: z
      .boolean()
      .describe(
        `An active key older than ${LIMITS.keyRotationRecommendedDays} days: rotate it (interface: key rotation).`,
      ),
  })
  .register(componentRegistry, { id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.array(apiKeySchema).register(componentRegistry, { id: 'ApiKeyList' });

export const listApiKeysQuerySchema = z.strictObject({ environment: environment.optional() });
export type ListApiKeysQuery = z.infer<typeof listApiKeysQuerySchema>;

export const createApiKeyRequestSchema = z
  .strictObject({ environment, name: name(100).optional().describe('Default `default`.') })
  .register(componentRegistry, { id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

export const issuedApiKeySchema = z
  .object({
    key: apiKeySchema,
    secret: z.string().describe('The key, shown this once. Keep it on servers; never put sk_ keys in a browser.'),
  })
  .register(componentRegistry, { id: 'IssuedApiKey' });
export type IssuedApiKey = z.infer<typeof issuedApiKeySchema>;

export const rotateRequestSchema = z
  .strictObject({ graceSeconds })
  .register(componentRegistry, { id: 'RotateCredentialRequest' });
export type RotateRequest = z.input<typeof rotateRequestSchema>;

export const rotatedApiKeySchema = z
  .object({ replacement: issuedApiKeySchema, previous: apiKeySchema })
  .register(componentRegistry, { id: 'RotatedApiKey' });
export type RotatedApiKey = z.infer<typeof rotatedApiKeySchema>;

export const partnerSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    environment,
    name: z.string(),
    secretHint: z.string(),
    allowedOrigins: z.array(z.string()),
    tokenLifetimeSeconds: z.int(),
    status: z.enum(['active', 'revoked']),
    createdAt: isoTime('Created'),
    revokedAt: isoTime('Revoked').nullable(),
    previousSecretExpiresAt: isoTime('End of the previous secret’s grace period').nullable(),
  })
  .register(componentRegistry, { id: 'Partner' });
export type Partner = z.infer<typeof partnerSchema>;
export const partnerListSchema = z.array(partnerSchema).register(componentRegistry, { id: 'PartnerList' });

const origins = z
  .array(z.string())
  .min(1)
  .max(20)
  .describe('Exact origins allowed to embed the widget, such as `https://emr.example.com`; no wildcards.');

export const createPartnerRequestSchema = z
  .strictObject({
    environment,
    name: name(200),
    allowedOrigins: origins,
    tokenLifetimeSeconds: z
      .int()
      .min(LIMITS.widgetTokenLifetimeMinSeconds)
      .max(LIMITS.widgetTokenLifetimeMaxSeconds)
      .optional()
      .describe('Longest widget token the partner may mint; default 3600.'),
  })
  .register(componentRegistry, { id: 'CreatePartnerRequest' });
export type CreatePartnerRequest = z.input<typeof createPartnerRequestSchema>;

export const updatePartnerRequestSchema = z
  .strictObject({ allowedOrigins: origins })
  .register(componentRegistry, { id: 'UpdatePartnerRequest' });
export type UpdatePartnerRequest = z.input<typeof updatePartnerRequestSchema>;

export const issuedPartnerKeySchema = z
  .object({
    partner: partnerSchema,
    partnerKey: z.string().describe('`X-Partner-Key`, shown this once: keep it on the EMR’s server.'),
  })
  .register(componentRegistry, { id: 'IssuedPartnerKey' });
export type IssuedPartnerKey = z.infer<typeof issuedPartnerKeySchema>;

export const memberSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(CONSOLE_ROLES),
    createdAt: isoTime('Joined'),
    lastSignInAt: isoTime('Last signed in').nullable(),
  })
  .register(componentRegistry, { id: 'Member' });
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(CONSOLE_ROLES),
    createdAt: isoTime('Sent'),
    expiresAt: isoTime('The link stops working'),
  })
  .register(componentRegistry, { id: 'Invitation' });
export type Invitation = z.infer<typeof invitationSchema>;

export const memberListSchema = z
  .object({ members: z.array(memberSchema), invitations: z.array(invitationSchema) })
  .register(componentRegistry, { id: 'MemberList', description: 'Members, and invitations not yet accepted.' });
export type MemberList = z.infer<typeof memberListSchema>;

export const createInvitationRequestSchema = z
  .strictObject({ email: z.email().max(254), role: z.enum(CONSOLE_ROLES) })
  .register(componentRegistry, { id: 'CreateInvitationRequest' });
export type CreateInvitationRequest = z.input<typeof createInvitationRequestSchema>;

export const issuedInvitationSchema = z
  .object({
    invitation: invitationSchema,
    link: z.string().describe('The one-time link, shown this once: send it to the person invited.'),
  })
  .register(componentRegistry, { id: 'IssuedInvitation' });
export type IssuedInvitation = z.infer<typeof issuedInvitationSchema>;

export const updateMemberRequestSchema = z
  .strictObject({ role: z.enum(CONSOLE_ROLES) })
  .register(componentRegistry, { id: 'UpdateMemberRequest' });
export type UpdateMemberRequest = z.input<typeof updateMemberRequestSchema>;

export const adminTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(ADMIN_TOKEN_ROLES),
    hint: z.string(),
    status: z.enum(['active', 'revoked']),
    createdAt: isoTime('Created'),
    createdBy: consoleActorSchema,
    lastUsedAt: isoTime('Last used, to the hour').nullable(),
    revokedAt: isoTime('Revoked').nullable(),
  })
  .register(componentRegistry, { id: 'AdminToken' });
export type AdminToken = z.infer<typeof adminTokenSchema>;
export const adminTokenListSchema = z.array(adminTokenSchema).register(componentRegistry, { id: 'AdminTokenList' });

export const createAdminTokenRequestSchema = z
  .strictObject({ name: name(100), role: z.enum(ADMIN_TOKEN_ROLES) })
  .register(componentRegistry, { id: 'CreateAdminTokenRequest' });
export type CreateAdminTokenRequest = z.input<typeof createAdminTokenRequestSchema>;

export const issuedAdminTokenSchema = z
  .object({
    token: adminTokenSchema,
    secret: z.string().describe('The token (prefix `cw_admin_`), shown this once; send it as `Authorization: Bearer`.'),
  })
  .register(componentRegistry, { id: 'IssuedAdminToken' });
export type IssuedAdminToken = z.infer<typeof issuedAdminTokenSchema>;

export const ssoSettingsSchema = z
  .object({
    issuer: z.string(),
    clientId: z.string(),
    redirectUri: z.string().describe('Register this as the redirect URI of the console’s client at the provider.'),
    passwordSignIn: z
      .boolean()
      .describe('Whether members may still sign in with a password; owners always may (break-glass).'),
    updatedAt: isoTime('Last changed'),
  })
  .register(componentRegistry, { id: 'SsoSettings' });
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

export const organisationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sso: ssoSettingsSchema.nullable().describe('Null: members sign in with passwords only.'),
    ssoRedirectUri: z
      .string()
      .describe('The redirect URI to register at the provider before switching single sign-on on.'),
  })
  .register(componentRegistry, { id: 'Organisation' });
export type Organisation = z.infer<typeof organisationSchema>;

export const putSsoRequestSchema = z
  .strictObject({
    issuer: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .describe('The provider’s issuer URL (https; http only for localhost).'),
    clientId: z.string().trim().min(1).max(500),
    clientSecret: z.string().min(1).max(2000).describe('Stored sealed; never shown again.'),
    passwordSignIn: z.boolean(),
  })
  .register(componentRegistry, { id: 'PutSsoRequest' });
export type PutSsoRequest = z.input<typeof putSsoRequestSchema>;
