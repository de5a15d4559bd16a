import type { AdminTokenRole, ConsoleRole, Environment } from '@chartwright/protocol';

/** The console's tables (0015): organisations, their members, sessions, links, SSO, admin tokens, usage. */

export interface OrganisationsTable {
  id: string;
  name: string;
  created_at: number;
}

/** Who made a credential: a console member, an admin token, or the CLI on the server. */
export type CreatorKind = 'console_member' | 'admin_token' | 'cli';

export interface ConsoleMembersTable {
  id: string;
  organisation_id: string;
  /** Lower-cased. */
  email: string;
  name: string;
  role: ConsoleRole;
  /** `scrypt$…` (console/passwords.ts); null for a member who signs in with single sign-on only. */
  password_hash: string | null;
  created_at: number;
  last_sign_in_at: number | null;
}

export interface ConsoleSessionsTable {
  /** SHA-256 of the cookie's value: the database never holds a usable session id. */
  id_hash: string;
  member_id: string;
  csrf_token: string;
  created_at: number;
  /** Updated at most once a minute, so idle expiry costs no write per request. */
  last_seen_at: number;
  /** Absolute expiry. */
  expires_at: number;
}

export interface ConsoleLinksTable {
  id: string;
  token_hash: string;
  kind: 'setup' | 'invitation';
  organisation_id: string;
  /** Who is invited; null for the setup link. */
  email: string | null;
  role: ConsoleRole;
  created_at: number;
  expires_at: number;
}

export interface AdminTokensTable {
  id: string;
  organisation_id: string;
  name: string;
  role: AdminTokenRole;
  secret_hash: string;
  hint: string;
  created_by_kind: CreatorKind;
  created_by_id: string | null;
  created_by_label: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface OrganisationSsoTable {
  organisation_id: string;
  /** The OpenID provider's issuer URL (its discovery document is under it). */
  issuer: string;
  client_id: string;
  /** AES-256-GCM under the key file's console secret (console/secret-box.ts). */
  client_secret_sealed: string;
  /** 1: members may still sign in with a password; 0: single sign-on only (owners keep theirs). */
  password_sign_in: 0 | 1;
  updated_at: number;
}

export interface ConsoleSsoLoginsTable {
  /** SHA-256 of the `state` sent to the provider. */
  state_hash: string;
  organisation_id: string;
  /** PKCE: what proves the code's redeemer is who asked for it. */
  code_verifier: string;
  nonce: string;
  expires_at: number;
}

export interface UsageCountersTable {
  project_id: string;
  environment: Environment;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  metric: 'restRequests' | 'notesGenerated' | 'realtimeAudioSeconds' | 'widgetTokens';
  count: number;
}
