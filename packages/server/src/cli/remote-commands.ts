import { ChartwrightError, ManagementClient } from '@chartwright/client';
import { CREDENTIAL_PREFIXES, type AuditEvent } from '@chartwright/protocol';

import { auditListFilters, type AuditListValues } from './audit-filters.js';
import { auditLine, type AuditLineFields } from './lines.js';
import { MANAGEMENT_COMMANDS, type ManagedResources, type ManagementContext } from './management-commands.js';
import { UsageError } from './usage.js';

export const REMOTE_USAGE = `Remote deployments (through the management API):
  --url <address>   Manage the deployment at <address> (or set CHARTWRIGHT_URL) instead of the local
                    database, with the organisation admin token in CHARTWRIGHT_ADMIN_TOKEN (cw_admin_…;
                    read from the environment only, never from a flag, so it stays out of shell history).
                    Commands: projects list|create, keys list|create|rotate|revoke,
                    partners list|create|set-origins|rotate-secret|revoke, audit list.
                    keys rotate|revoke and partners set-origins|rotate-secret|revoke also take
                    --project; without it the project holding the id is looked up.
                    audit list: no --encounter, --patient or --partner; --limit keeps the newest records.`;

/** Where to manage: `--url`, else CHARTWRIGHT_URL (an empty one counts as unset), else the local database. */
export interface RemoteTarget {
  url: string;
  adminToken: string | undefined;
}

export function remoteTarget(
  url: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): RemoteTarget | undefined {
  const address = url ?? env['CHARTWRIGHT_URL'];
  if (address === undefined || (url === undefined && address === '')) return undefined;
  return { url: address, adminToken: env['CHARTWRIGHT_ADMIN_TOKEN'] };
}

/** The options the remote commands read, beside the printer every command gets. */
export interface RemoteContext extends Omit<ManagementContext, keyof ManagedResources> {
  values: ManagementContext['values'] & AuditListValues;
}

/** The projects to list: `--project`, else every project of the organisation. */
async function projectIds(client: ManagementClient, project: string | undefined): Promise<string[]> {
  return project === undefined ? (await client.projects.list()).map(({ id }) => id) : [project];
}

/**
 * Every project's records (or `--project`'s) in the local commands' order: oldest first, then by
 * id as the database compares them (bytes, not locale).
 */
async function acrossProjects<T extends { id: string; createdAt: string }>(
  client: ManagementClient,
  project: string | undefined,
  list: (projectId: string) => Promise<T[]>,
): Promise<T[]> {
  const lists = await Promise.all((await projectIds(client, project)).map(list));
  const byId = (a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return lists.flat().sort((a, b) => a.createdAt.localeCompare(b.createdAt) || byId(a, b));
}

/**
 * The project holding a key or partner: `--project`, else the one whose list has it. The API
 * addresses both under their project, while the local commands take the id alone.
 */
async function projectOf(
  client: ManagementClient,
  project: string | undefined,
  id: string,
  list: (projectId: string) => Promise<readonly { id: string }[]>,
  what: string,
): Promise<string> {
  if (project !== undefined) return project;
  for (const projectId of await projectIds(client, undefined)) {
    if ((await list(projectId)).some((item) => item.id === id)) return projectId;
  }
  throw new Error(`no ${what} ${id} in any project of the organisation`);
}

/** The management API in the shape the commands act on; `project` is --project, for projectOf. */
function remoteResources(client: ManagementClient, project: string | undefined): ManagedResources {
  const keyProject = (keyId: string) => projectOf(client, project, keyId, (id) => client.keys.list(id), 'key');
  const partnerProject = (partnerId: string) =>
    projectOf(client, project, partnerId, (id) => client.partners.list(id), 'partner');
  return {
    projects: { create: (name) => client.projects.create({ name }), list: () => client.projects.list() },
    keys: {
      create: ({ projectId, ...params }) => client.keys.create(projectId, params),
      list: ({ projectId, ...params }) =>
        acrossProjects(client, projectId, (eachProject) => client.keys.list(eachProject, params)),
      rotate: async (keyId, grace) => client.keys.rotate(await keyProject(keyId), keyId, grace),
      revoke: async (keyId) => client.keys.revoke(await keyProject(keyId), keyId),
    },
    partners: {
      create: ({ projectId, ...params }) => client.partners.create(projectId, params),
      list: ({ projectId }) => acrossProjects(client, projectId, (eachProject) => client.partners.list(eachProject)),
      setOrigins: async (partnerId, allowedOrigins) =>
        client.partners.update(await partnerProject(partnerId), partnerId, { allowedOrigins }),
      rotateSecret: async (partnerId, grace) =>
        client.partners.rotateSecret(await partnerProject(partnerId), partnerId, grace),
      revoke: async (partnerId) => client.partners.revoke(await partnerProject(partnerId), partnerId),
    },
  };
}

/** An API record as `audit list` prints the database's. */
function lineFields(event: AuditEvent): AuditLineFields {
  return {
    occurred_at: Date.parse(event.occurredAt),
    action: event.action,
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    actor_kind: event.actor.kind,
    actor_id: event.actor.id,
    outcome: event.outcome,
    status: event.status,
    error_code: event.errorCode,
    encounter_id: event.encounterId,
    ip: event.ip,
    request_id: event.requestId,
  };
}

/** The API's page size ceiling: fewer round trips for a long log. */
const AUDIT_PAGE_SIZE = 500;

async function auditList({ values, print, client }: RemoteCommandContext): Promise<void> {
  for (const flag of ['encounter', 'patient', 'partner'] as const) {
    if (values[flag] !== undefined) {
      throw new UsageError(`--${flag} works on the server's database only; the management API has no such filter`);
    }
  }
  const { since, until, limit, ...filters } = auditListFilters(values);
  const params = {
    ...filters,
    ...(since === undefined ? {} : { since: new Date(since).toISOString() }),
    ...(until === undefined ? {} : { until: new Date(until).toISOString() }),
    limit: Math.min(limit ?? AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE),
  };
  // The API pages newest first; the newest `limit` records are printed oldest first, as locally.
  const events: AuditEvent[] = [];
  for await (const event of client.auditEvents.iterate(params)) {
    events.push(event);
    if (events.length === limit) break;
  }
  events.reverse();
  print(
    events,
    events.length === 0 ? 'No audit records match.' : events.map((event) => auditLine(lineFields(event))).join('\n'),
  );
}

type RemoteCommandContext = RemoteContext & ManagedResources & { client: ManagementClient };

const REMOTE_COMMANDS: Readonly<Record<string, (context: RemoteCommandContext) => Promise<void>>> = {
  ...MANAGEMENT_COMMANDS,
  'audit list': auditList,
};

function managementClient({ url, adminToken }: RemoteTarget): ManagementClient {
  if (adminToken === undefined || adminToken.trim() === '') {
    throw new UsageError(
      `CHARTWRIGHT_ADMIN_TOKEN is required with --url or CHARTWRIGHT_URL: an organisation admin token (${CREDENTIAL_PREFIXES.adminToken}…), ` +
        'read from the environment only so it stays out of shell history',
    );
  }
  try {
    return new ManagementClient({ adminToken, baseUrl: url });
  } catch (error) {
    // A credential of another kind, or an address that is not one: how the command was called.
    if (error instanceof ChartwrightError) {
      throw new UsageError(
        `${error.message} (adminToken is CHARTWRIGHT_ADMIN_TOKEN; baseUrl is --url or CHARTWRIGHT_URL)`,
      );
    }
    throw error;
  }
}

/** Runs `command` against the deployment at `target` through its management API. */
export async function runRemote(command: string, context: RemoteContext, target: RemoteTarget): Promise<void> {
  const run = Object.hasOwn(REMOTE_COMMANDS, command) ? REMOTE_COMMANDS[command] : undefined;
  if (run === undefined) {
    throw new UsageError(
      `"${command}" is not a remote command (remote: ${Object.keys(REMOTE_COMMANDS).join(', ')}); ` +
        'the others run on the server, without --url or CHARTWRIGHT_URL',
    );
  }
  const client = managementClient(target);
  await run({ ...context, ...remoteResources(client, context.values.project), client });
}
