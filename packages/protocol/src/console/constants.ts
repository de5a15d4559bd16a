/**
 * The console's wire constants, apart from any zod schema so a browser bundle that imports them
 * carries no zod (a module's top-level schema calls survive tree shaking).
 */

/** The header that carries a console session's CSRF token on every POST, PATCH and DELETE. */
export const CSRF_HEADER = 'x-csrf-token';

/** NIST SP 800-63B: long passphrases allowed, no composition rules; 12 characters at least. */
export const CONSOLE_PASSWORD_MIN_LENGTH = 12;
export const CONSOLE_PASSWORD_MAX_LENGTH = 256;

/** Who can leave an audit record: credentials, people, and the service itself. */
export const AUDIT_ACTOR_KINDS = [
  'api_key',
  'realtime_token',
  'clinician',
  'pdf_link',
  'cli',
  'system',
  'console_member',
  'admin_token',
] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_ACTIONS = [
  'read',
  'create',
  'update',
  'delete',
  'export',
  'push',
  'rotate',
  'revoke',
  'sign_in',
  'sign_out',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const USAGE_METRICS = ['restRequests', 'notesGenerated', 'realtimeAudioSeconds', 'widgetTokens'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** Where a failed single sign-on sends the browser: the sign-in page, told why in `sso_error`. */
export const SSO_ERRORS = ['denied', 'expired', 'not_a_member', 'email_not_verified', 'provider_error'] as const;
export type SsoError = (typeof SSO_ERRORS)[number];
