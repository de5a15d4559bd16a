import type { Environment } from '../credentials.js';

/**
 * A console member's role: `owner` everything (members, admin tokens, the organisation's sign-in),
 * `admin` production and sandbox credentials and partners, `developer` sandbox credentials only
 * (production keys' metadata visible), `auditor` the audit log and usage, read-only.
 */
export const CONSOLE_ROLES = ['owner', 'admin', 'developer', 'auditor'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** Roles an admin token may carry: automation acts as a team member would, never as an owner. */
export const ADMIN_TOKEN_ROLES = ['admin', 'developer', 'auditor'] as const;
export type AdminTokenRole = (typeof ADMIN_TOKEN_ROLES)[number];

/**
 * What a role may do. Reading (projects, key and partner metadata, members, usage, the audit log)
 * is every role's; each write names the permission it needs.
 */
export type ConsolePermission =
  | 'projects:create'
  | 'credentials:test'
  | 'credentials:live'
  | 'members:manage'
  | 'admin_tokens:manage'
  | 'organisation:manage';

const GRANTS: Readonly<Record<ConsoleRole, readonly ConsolePermission[]>> = {
  owner: [
    'projects:create',
    'credentials:test',
    'credentials:live',
    'members:manage',
    'admin_tokens:manage',
    'organisation:manage',
  ],
  admin: ['projects:create', 'credentials:test', 'credentials:live'],
  developer: ['credentials:test'],
  auditor: [],
};

export function permissionsOf(role: ConsoleRole): readonly ConsolePermission[] {
  return GRANTS[role];
}

export function permits(role: ConsoleRole, permission: ConsolePermission): boolean {
  return GRANTS[role].includes(permission);
}

/** The permission that creating, rotating or revoking a key or partner of `environment` needs. */
export function credentialPermission(environment: Environment): ConsolePermission {
  return environment === 'live' ? 'credentials:live' : 'credentials:test';
}
