import { credentialPermission, type Environment } from '@chartwright/protocol';

import type { ApiKeyService } from '../auth/api-keys.js';
import { route, type Area } from '../http/route.js';
import type { PartnerService } from '../partners/partner-service.js';
import type { ProjectService } from '../projects/project-service.js';
import { creatorOf, requirePermission, type ConsolePrincipal } from './principal.js';

export interface ManagementRouteOptions {
  projects: ProjectService;
  keys: ApiKeyService;
  partners: PartnerService;
}

const environmentName = (environment: Environment) => (environment === 'live' ? 'production' : 'sandbox');

/** Refuses unless the role may change credentials of `environment` (developers: the sandbox only). */
function requireCredentials(principal: ConsolePrincipal, environment: Environment, doing: string): void {
  requirePermission(principal, credentialPermission(environment), `${doing} in ${environmentName(environment)}`);
}

/**
 * Projects and their credentials, as the console and admin tokens manage them. Every project,
 * key and partner outside the caller's organisation answers 404, as if it did not exist.
 */
export function managementRoutes(area: Area<'console', ConsolePrincipal>, options: ManagementRouteOptions): void {
  const { projects } = options;
  const project = (principal: ConsolePrincipal, projectId: string) =>
    projects.requireInOrganisation(projectId, principal.organisationId);

  route(area, 'listProjects', ({ principal }) => projects.list(principal.organisationId));
  route(area, 'createProject', ({ body, principal }) => {
    requirePermission(principal, 'projects:create', 'create projects');
    return projects.create(body.name, principal.organisationId);
  });
  keyRoutes(area, options.keys, project);
  partnerRoutes(area, options.partners, project);
}

/** Checks the project is the caller's organisation's, or answers 404. */
type ProjectCheck = (principal: ConsolePrincipal, projectId: string) => Promise<unknown>;

function keyRoutes(area: Area<'console', ConsolePrincipal>, keys: ApiKeyService, project: ProjectCheck): void {
  route(area, 'listApiKeys', async ({ params, query, principal }) => {
    await project(principal, params.projectId);
    return keys.list({
      projectId: params.projectId,
      ...(query.environment === undefined ? {} : { environment: query.environment }),
    });
  });
  route(area, 'createApiKey', async ({ params, body, principal }) => {
    await project(principal, params.projectId);
    requireCredentials(principal, body.environment, 'create keys');
    return keys.create({
      projectId: params.projectId,
      environment: body.environment,
      ...(body.name === undefined ? {} : { name: body.name }),
      creator: creatorOf(principal),
    });
  });
  route(area, 'rotateApiKey', async ({ params, body, principal }) => {
    await project(principal, params.projectId);
    const key = await keys.requireInProject(params.keyId, params.projectId);
    requireCredentials(principal, key.environment, 'rotate keys');
    return keys.rotate(key.id, {
      ...(body.graceSeconds === undefined ? {} : { graceSeconds: body.graceSeconds }),
      creator: creatorOf(principal),
    });
  });
  route(area, 'revokeApiKey', async ({ params, principal }) => {
    await project(principal, params.projectId);
    const key = await keys.requireInProject(params.keyId, params.projectId);
    requireCredentials(principal, key.environment, 'revoke keys');
    return keys.revoke(key.id);
  });
}

function partnerRoutes(area: Area<'console', ConsolePrincipal>, partners: PartnerService, project: ProjectCheck): void {
  route(area, 'listPartners', async ({ params, principal }) => {
    await project(principal, params.projectId);
    return partners.list({ projectId: params.projectId });
  });
  route(area, 'createPartner', async ({ params, body, principal }) => {
    await project(principal, params.projectId);
    requireCredentials(principal, body.environment, 'register partners');
    return partners.create({
      projectId: params.projectId,
      environment: body.environment,
      name: body.name,
      allowedOrigins: body.allowedOrigins,
      ...(body.tokenLifetimeSeconds === undefined ? {} : { tokenLifetimeSeconds: body.tokenLifetimeSeconds }),
    });
  });
  route(area, 'updatePartner', async ({ params, body, principal }) => {
    await project(principal, params.projectId);
    const partner = await partners.requireInProject(params.partnerId, params.projectId);
    requireCredentials(principal, partner.environment, 'change partners');
    return partners.setOrigins(partner.id, body.allowedOrigins);
  });
  route(area, 'rotatePartnerSecret', async ({ params, body, principal }) => {
    await project(principal, params.projectId);
    const partner = await partners.requireInProject(params.partnerId, params.projectId);
    requireCredentials(principal, partner.environment, 'rotate partner secrets');
    return partners.rotateSecret(
      partner.id,
      body.graceSeconds === undefined ? {} : { graceSeconds: body.graceSeconds },
    );
  });
  route(area, 'revokePartner', async ({ params, principal }) => {
    await project(principal, params.projectId);
    const partner = await partners.requireInProject(params.partnerId, params.projectId);
    requireCredentials(principal, partner.environment, 'revoke partners');
    return partners.revoke(partner.id);
  });
}
