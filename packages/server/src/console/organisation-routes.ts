import type { FastifyReply } from 'fastify';

import { route, type Area } from '../http/route.js';
import type { UsageReport } from '../usage/usage-report.js';
import type { AdminTokens } from './admin-tokens.js';
import type { AuditRecords } from './audit-records.js';
import type { ConsoleMembers } from './members.js';
import type { ConsolePrincipal } from './principal.js';
import type { SingleSignOn } from './single-sign-on.js';

export interface OrganisationRouteOptions {
  sso: SingleSignOn;
  members: ConsoleMembers;
  adminTokens: AdminTokens;
  usage: UsageReport;
  auditRecords: AuditRecords;
}

/** A CSV answer the browser saves as a file rather than shows. */
function download(reply: FastifyReply, name: string, csv: string): FastifyReply {
  return reply.header('content-disposition', `attachment; filename="${name}"`).send(csv);
}

/** The organisation's people, automation, usage and audit log. */
export function organisationRoutes(area: Area<'console', ConsolePrincipal>, options: OrganisationRouteOptions): void {
  const { sso, members, adminTokens, usage, auditRecords } = options;

  route(area, 'getOrganisation', ({ principal }) => sso.organisation(principal));
  route(area, 'putOrganisationSso', ({ body, principal }) => sso.configure(principal, body));
  route(area, 'deleteOrganisationSso', ({ principal }) => sso.remove(principal));

  route(area, 'listMembers', ({ principal }) => members.list(principal));
  route(area, 'inviteMember', ({ body, principal }) => members.invite(principal, body));
  route(area, 'cancelInvitation', async ({ params, principal }) => {
    await members.cancelInvitation(principal, params.invitationId);
    return null;
  });
  route(area, 'updateMember', ({ params, body, principal }) => members.setRole(principal, params.memberId, body.role));
  route(area, 'removeMember', async ({ params, principal }) => {
    await members.remove(principal, params.memberId);
    return null;
  });

  route(area, 'listAdminTokens', ({ principal }) => adminTokens.list(principal));
  route(area, 'createAdminToken', ({ body, principal }) => adminTokens.create(principal, body));
  route(area, 'revokeAdminToken', ({ params, principal }) => adminTokens.revoke(principal, params.tokenId));

  route(area, 'getUsage', ({ query, principal }) => usage.days(principal, query));
  route(area, 'exportUsage', async ({ query, principal, reply }) =>
    download(reply, 'chartwright-usage.csv', await usage.csv(principal, query)),
  );
  route(area, 'listAuditEvents', ({ query, principal }) => auditRecords.page(principal, query));
  route(area, 'exportAuditEvents', async ({ query, principal, reply }) =>
    download(reply, 'chartwright-audit-log.csv', await auditRecords.csv(principal, query)),
  );
}
