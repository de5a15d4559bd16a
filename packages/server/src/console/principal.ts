import type { ConsoleActor, ConsolePermission, ConsoleRole, Environment } from '@chartwright/protocol';
import { permits } from '@chartwright/protocol';

import type { AuditActor } from '../audit/audit-log.js';
import { AppError } from '../errors.js';

/** Who calls the management API: a signed-in member, or an organisation's admin token. */
export interface ConsolePrincipal {
  readonly kind: 'console_member' | 'admin_token';
  /** The member's or the token's id. */
  readonly id: string;
  /** The member's e-mail or the token's name, as records of what they made show it. */
  readonly label: string;
  readonly organisationId: string;
  readonly role: ConsoleRole;
  /** The session's hashed id, to end it; null for an admin token. */
  readonly sessionIdHash: string | null;
}

export const isConsolePrincipal = (principal: unknown): principal is ConsolePrincipal =>
  typeof principal === 'object' &&
  principal !== null &&
  'organisationId' in principal &&
  'role' in principal &&
  'sessionIdHash' in principal;

/** Refuses with 403 role_forbidden unless the caller's role grants `permission`. */
export function requirePermission(principal: ConsolePrincipal, permission: ConsolePermission, doing: string): void {
  if (!permits(principal.role, permission)) {
    throw new AppError('role_forbidden', `The ${principal.role} role cannot ${doing}.`);
  }
}

/** What a credential records about who made it. */
export const creatorOf = (principal: ConsolePrincipal): ConsoleActor => ({
  kind: principal.kind,
  id: principal.id,
  label: principal.label,
});

/** The audit actor of a management call, in the project environment it touched when it touched one. */
export function consoleActor(
  principal: ConsolePrincipal,
  scope: { projectId: string | null; environment: Environment | null },
): AuditActor {
  return {
    kind: principal.kind,
    id: principal.id,
    projectId: scope.projectId,
    environment: scope.environment,
    partnerId: null,
    organisationId: principal.organisationId,
  };
}
