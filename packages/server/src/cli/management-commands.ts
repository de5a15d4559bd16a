import type {
  ApiKey,
  Environment,
  IssuedApiKey,
  IssuedPartnerKey,
  Partner,
  Project,
  RotatedApiKey,
} from '@chartwright/protocol';

import {
  parseEnvironment,
  parseGrace,
  parseSeconds,
  required,
  requiredOrigins,
  requireEnvironment,
} from './arguments.js';
import { keyLine, partnerLine, projectLine } from './lines.js';

/** How long a rotated credential keeps working: the service's default when not given. */
interface Grace {
  graceSeconds?: number;
}

/**
 * What the projects, keys and partners commands act on: on the server, the services themselves;
 * with --url, a deployment's management API behind the same shape (remote-commands.ts). The
 * options are read and the results printed here once, so both print the same.
 */
export interface ManagedResources {
  projects: {
    create(name: string): Promise<Project>;
    list(): Promise<Project[]>;
  };
  keys: {
    create(input: { projectId: string; environment: Environment; name?: string }): Promise<IssuedApiKey>;
    list(filter: { projectId?: string; environment?: Environment }): Promise<ApiKey[]>;
    rotate(keyId: string, grace: Grace): Promise<RotatedApiKey>;
    revoke(keyId: string): Promise<ApiKey>;
  };
  partners: {
    create(input: {
      projectId: string;
      environment: Environment;
      name: string;
      allowedOrigins: string[];
      tokenLifetimeSeconds?: number;
    }): Promise<IssuedPartnerKey>;
    list(filter: { projectId?: string }): Promise<Partner[]>;
    setOrigins(partnerId: string, allowedOrigins: string[]): Promise<Partner>;
    rotateSecret(partnerId: string, grace: Grace): Promise<IssuedPartnerKey>;
    revoke(partnerId: string): Promise<Partner>;
  };
}

/** The options these commands read. */
export interface ManagementValues {
  name?: string | undefined;
  project?: string | undefined;
  env?: string | undefined;
  grace?: string | undefined;
  origin?: string[] | undefined;
  'token-lifetime'?: string | undefined;
}

export interface ManagementContext extends ManagedResources {
  values: ManagementValues;
  /** Positionals after the command, e.g. the key id of `keys rotate`. */
  rest: readonly string[];
  print: (json: unknown, human: string) => void;
}

type ManagementCommand = (context: ManagementContext) => Promise<void>;

const graceOf = (value: string | undefined): Grace => {
  const grace = parseGrace(value);
  return grace === undefined ? {} : { graceSeconds: grace };
};

const PROJECT_COMMANDS: Readonly<Record<string, ManagementCommand>> = {
  'projects create': async ({ values, print, projects }) => {
    const project = await projects.create(required(values.name, '--name'));
    print(project, `Created project ${project.id} (${project.name})`);
  },
  'projects list': async ({ print, projects }) => {
    const list = await projects.list();
    print(list, list.length === 0 ? 'No projects.' : list.map(projectLine).join('\n'));
  },
};

const KEY_COMMANDS: Readonly<Record<string, ManagementCommand>> = {
  'keys create': async ({ values, print, keys }) => {
    const issued = await keys.create({
      projectId: required(values.project, '--project'),
      environment: requireEnvironment(values.env),
      ...(values.name === undefined ? {} : { name: values.name }),
    });
    print(
      { ...issued.key, key: issued.secret },
      `Created ${issued.key.environment} key ${issued.key.id}\nKey (shown once, store it now): ${issued.secret}`,
    );
  },
  'keys list': async ({ values, print, keys }) => {
    const environment = parseEnvironment(values.env);
    const list = await keys.list({
      ...(values.project === undefined ? {} : { projectId: values.project }),
      ...(environment === undefined ? {} : { environment }),
    });
    print(list, list.length === 0 ? 'No keys.' : list.map(keyLine).join('\n'));
  },
  'keys rotate': async ({ values, rest, print, keys }) => {
    const grace = graceOf(values.grace);
    const { replacement, previous } = await keys.rotate(required(rest[0], '<keyId>'), grace);
    print(
      { replacement: { ...replacement.key, key: replacement.secret }, previous },
      `Rotated ${previous.id}: it keeps working until ${previous.expiresAt ?? 'now'}.\n` +
        `New key ${replacement.key.id} (shown once, store it now): ${replacement.secret}`,
    );
  },
  'keys revoke': async ({ rest, print, keys }) => {
    const revoked = await keys.revoke(required(rest[0], '<keyId>'));
    print(revoked, `Revoked ${revoked.id} at ${revoked.revokedAt ?? ''}`);
  },
};

const PARTNER_COMMANDS: Readonly<Record<string, ManagementCommand>> = {
  'partners create': async ({ values, print, partners }) => {
    const origins = requiredOrigins(values.origin);
    const lifetime = parseSeconds(values['token-lifetime'], '--token-lifetime');
    const issued = await partners.create({
      projectId: required(values.project, '--project'),
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
  'partners list': async ({ values, print, partners }) => {
    const list = await partners.list(values.project === undefined ? {} : { projectId: values.project });
    print(list, list.length === 0 ? 'No partners.' : list.map(partnerLine).join('\n'));
  },
  'partners set-origins': async ({ values, rest, print, partners }) => {
    const partner = await partners.setOrigins(required(rest[0], '<partnerId>'), requiredOrigins(values.origin));
    print(partner, `${partner.id} may now be embedded from: ${partner.allowedOrigins.join(', ')}`);
  },
  'partners rotate-secret': async ({ values, rest, print, partners }) => {
    const grace = graceOf(values.grace);
    const issued = await partners.rotateSecret(required(rest[0], '<partnerId>'), grace);
    print(
      { ...issued.partner, partnerKey: issued.partnerKey },
      `Rotated the secret of ${issued.partner.id}; the old one works until ${issued.partner.previousSecretExpiresAt ?? 'now'}.\n` +
        `New X-Partner-Key (shown once): ${issued.partnerKey}`,
    );
  },
  'partners revoke': async ({ rest, print, partners }) => {
    const revoked = await partners.revoke(required(rest[0], '<partnerId>'));
    print(revoked, `Revoked partner ${revoked.id} at ${revoked.revokedAt ?? ''}`);
  },
};

/** `projects …`, `keys …` and `partners …`: the same commands on the server and with --url. */
export const MANAGEMENT_COMMANDS: Readonly<Record<string, ManagementCommand>> = {
  ...PROJECT_COMMANDS,
  ...KEY_COMMANDS,
  ...PARTNER_COMMANDS,
};
