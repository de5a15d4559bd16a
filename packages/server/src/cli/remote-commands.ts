import { ChartwrightError, ManagementClient } from '@chartwright/client';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, CREDENTIAL_PREFIXES, type AuditEvent } from '@chartwright/protocol';

import {
  parseEnvironment,
  parseGrace,
  parseSeconds,
  required,
  requiredOrigins,
  requireEnvironment,
} from './arguments.js';
import { keyLine, partnerLine, projectLine } from './lines.js';
import { auditLine, instant, limitOf, oneOf, type AuditLineFields } from './privacy-commands.js';
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
export interface RemoteContext {
  values: {
    name?: string | undefined;
    project?: string | undefined;
    env?: string | undefined;
    grace?: string | undefined;
    origin?: string[] | undefined;
    'token-lifetime'?: string | undefined;
    'resource-type'?: string | undefined;
    resource?: string | undefined;
    actor?: string | undefined;
    'actor-kind'?: string | undefined;
    encounter?: string | undefined;
    patient?: string | undefined;
    partner?: string | undefined;
    action?: string | undefined;
    since?: string | undefined;
    until?: string | undefined;
    limit?: string | undefined;
  };
  /** Positionals after the command, e.g. the key id of `keys rotate`. */
  rest: readonly string[];
  print: (json: unknown, human: string) => void;
}

type RemoteCommand = (context: RemoteContext & { client: ManagementClient }) => Promise<void>;

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

const PROJECT_COMMANDS: Readonly<Record<string, RemoteCommand>> = {
  'projects create': async ({ values, print, client }) => {
    const project = await client.projects.create({ name: required(values.name, '--name') });
    print(project, `Created project ${project.id} (${project.name})`);
  },
  'projects list': async ({ print, client }) => {
    const list = await client.projects.list();
    print(list, list.length === 0 ? 'No projects.' : list.map(projectLine).join('\n'));
  },
};

const KEY_COMMANDS: Readonly<Record<string, RemoteCommand>> = {
  'keys create': async ({ values, print, client }) => {
    const environment = requireEnvironment(values.env);
    const issued = await client.keys.create(required(values.project, '--project'), {
      environment,
      ...(values.name === undefined ? {} : { name: values.name }),
    });
    print(
      { ...issued.key, key: issued.secret },
      `Created ${issued.key.environment} key ${issued.key.id}\nKey (shown once, store it now): ${issued.secret}`,
    );
  },
  'keys list': async ({ values, print, client }) => {
    const environment = parseEnvironment(values.env);
    const params = environment === undefined ? {} : { environment };
    const list = await acrossProjects(client, values.project, (projectId) => client.keys.list(projectId, params));
    print(list, list.length === 0 ? 'No keys.' : list.map(keyLine).join('\n'));
  },
  'keys rotate': async ({ values, rest, print, client }) => {
    const keyId = required(rest[0], '<keyId>');
    const grace = parseGrace(values.grace);
    const projectId = await projectOf(client, values.project, keyId, (id) => client.keys.list(id), 'key');
    const { replacement, previous } = await client.keys.rotate(
      projectId,
      keyId,
      grace === undefined ? {} : { graceSeconds: grace },
    );
    print(
      { replacement: { ...replacement.key, key: replacement.secret }, previous },
      `Rotated ${previous.id}: it keeps working until ${previous.expiresAt ?? 'now'}.\n` +
        `New key ${replacement.key.id} (shown once, store it now): ${replacement.secret}`,
    );
  },
  'keys revoke': async ({ values, rest, print, client }) => {
    const keyId = required(rest[0], '<keyId>');
    const projectId = await projectOf(client, values.project, keyId, (id) => client.keys.list(id), 'key');
    const revoked = await client.keys.revoke(projectId, keyId);
    print(revoked, `Revoked ${revoked.id} at ${revoked.revokedAt ?? ''}`);
  },
};

const PARTNER_COMMANDS: Readonly<Record<string, RemoteCommand>> = {
  'partners create': async ({ values, print, client }) => {
    const origins = requiredOrigins(values.origin);
    const lifetime = parseSeconds(values['token-lifetime'], '--token-lifetime');
    const issued = await client.partners.create(required(values.project, '--project'), {
      environment: requireEnvironment(values.env),
      name: required(values.name, '--name'),
      allowedOrigins: origins,
      ...(lifetime === undefined ? {} : { tokenLifetimeSeconds: lifetime }),
    });
    print(
      { ...issued.partner, partnerKey: issued.partnerKey },
      `Created partner ${issued.partner.id} (${issued.partner.name}, ${issued.partner.environment})\n` +
        `X-Partner-Key (shown once, keep it on the EMR's server): ${issued.partnerKey}`,
    );
  },
  'partners list': async ({ values, print, client }) => {
    const list = await acrossProjects(client, values.project, (projectId) => client.partners.list(projectId));
    print(list, list.length === 0 ? 'No partners.' : list.map(partnerLine).join('\n'));
  },
  'partners set-origins': async ({ values, rest, print, client }) => {
    const partnerId = required(rest[0], '<partnerId>');
    const allowedOrigins = requiredOrigins(values.origin);
    const projectId = await partnerProject(client, values.project, partnerId);
    const partner = await client.partners.update(projectId, partnerId, { allowedOrigins });
    print(partner, `${partner.id} may now be embedded from: ${partner.allowedOrigins.join(', ')}`);
  },
  'partners rotate-secret': async ({ values, rest, print, client }) => {
    const partnerId = required(rest[0], '<partnerId>');
    const grace = parseGrace(values.grace);
    const projectId = await partnerProject(client, values.project, partnerId);
    const issued = await client.partners.rotateSecret(
      projectId,
      partnerId,
      grace === undefined ? {} : { graceSeconds: grace },
    );
    print(
      { ...issued.partner, partnerKey: issued.partnerKey },
      `Rotated the secret of ${issued.partner.id}; the old one works until ${issued.partner.previousSecretExpiresAt ?? 'now'}.\n` +
        `New X-Partner-Key (shown once): ${issued.partnerKey}`,
    );
  },
  'partners revoke': async ({ values, rest, print, client }) => {
    const partnerId = required(rest[0], '<partnerId>');
    const revoked = await client.partners.revoke(await partnerProject(client, values.project, partnerId), partnerId);
    print(revoked, `Revoked partner ${revoked.id} at ${revoked.revokedAt ?? ''}`);
  },
};

function partnerProject(client: ManagementClient, project: string | undefined, partnerId: string): Promise<string> {
  return projectOf(client, project, partnerId, (id) => client.partners.list(id), 'partner');
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

async function auditList({ values, print, client }: Parameters<RemoteCommand>[0]): Promise<void> {
  for (const flag of ['encounter', 'patient', 'partner'] as const) {
    if (values[flag] !== undefined) {
      throw new UsageError(`--${flag} works on the server's database only; the management API has no such filter`);
    }
  }
  const limit = limitOf(values.limit);
  const iso = (value: string | undefined, flag: string) => {
    const at = instant(value, flag);
    return at === undefined ? undefined : new Date(at).toISOString();
  };
  const filters = {
    resourceType: values['resource-type'],
    resourceId: values.resource,
    actorId: values.actor,
    actorKind: oneOf(values['actor-kind'], AUDIT_ACTOR_KINDS, '--actor-kind'),
    action: oneOf(values.action, AUDIT_ACTIONS, '--action'),
    since: iso(values.since, '--since'),
    until: iso(values.until, '--until'),
    limit: Math.min(limit ?? AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE),
  };
  // The API pages newest first; the newest `limit` records are printed oldest first, as locally.
  const events: AuditEvent[] = [];
  for await (const event of client.auditEvents.iterate(filters)) {
    events.push(event);
    if (events.length === limit) break;
  }
  events.reverse();
  print(
    events,
    events.length === 0 ? 'No audit records match.' : events.map((event) => auditLine(lineFields(event))).join('\n'),
  );
}

const REMOTE_COMMANDS: Readonly<Record<string, RemoteCommand>> = {
  ...PROJECT_COMMANDS,
  ...KEY_COMMANDS,
  ...PARTNER_COMMANDS,
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
  await run({ ...context, client: managementClient(target) });
}
