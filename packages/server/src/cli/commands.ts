import { parseArgs } from 'node:util';

import { AuditLog } from '../audit/audit-log.js';
import { AuditSubjects } from '../audit/audit-subjects.js';
import { ApiKeyService } from '../auth/api-keys.js';
import { systemClock, type Clock } from '../clock.js';
import { loadConfig, type Config } from '../config/config.js';
import { ConsoleMembers } from '../console/members.js';
import { ProjectService } from '../projects/project-service.js';
import { PartnerService } from '../partners/partner-service.js';
import { Deletion } from '../retention/deletion.js';
import { Retention } from '../retention/retention.js';
import { generatedSecrets } from '../secrets/key-file.js';
import { WidgetTokenSigner } from '../partners/signer.js';
import { openDatabase, type Database } from '../store/database.js';
import { migrateToLatest, type MigrationOutcome } from '../store/migrate.js';
import type { OrganisationsRepository } from '../store/organisations.js';
import { createRepositories } from '../store/repositories.js';

import { CONSOLE_COMMANDS } from './console-commands.js';
import { MANAGEMENT_COMMANDS } from './management-commands.js';
import { PRIVACY_COMMANDS } from './privacy-commands.js';
import { REMOTE_USAGE, remoteTarget, runRemote } from './remote-commands.js';
import { UsageError } from './usage.js';
import { runWorker } from './worker-command.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const USAGE = `Usage: chartwright <command> [options]

Commands:
  serve                                     Run the service (as \`npm start\` does in a checkout), configured by
                                            the environment (docs/configuration.md)
  worker                                    Run asynchronous notes' jobs and their webhooks until SIGTERM, on the
                                            service's database and queue (docs/operations.md, "Note workers")
  migrate                                   Apply database migrations
  projects create --name <name>             Create a project (sandbox + production environments)
  projects list                             List projects
  keys create --project <id> --env test|live [--name <name>]
                                            Create an API key; the key is shown once
  keys list [--project <id>] [--env test|live]
                                            List keys (hints only, never the key)
  keys rotate <keyId> [--grace <seconds>]   Issue a replacement; the old key works for the grace period
  keys revoke <keyId>                       Revoke a key at once, with the realtime tokens it minted
  partners create --project <id> --env test|live --name <name> --origin <origin> [--origin …]
                  [--token-lifetime <seconds>]
                                            Register an EMR partner; its X-Partner-Key is shown once
  partners list [--project <id>]            List partners (secret hints only)
  partners set-origins <partnerId> --origin <origin> [--origin …]
                                            Replace the origins allowed to embed the partner's widget
  partners rotate-secret <partnerId> [--grace <seconds>]
                                            New secret now; the old one works for the grace period
  partners revoke <partnerId>               Revoke a partner at once: key, widget tokens, sessions
  audit list [--resource-type <type>] [--resource <id>] [--actor <id>] [--actor-kind <kind>]
             [--encounter <id>] [--patient <emrPatientId> --partner <partnerId>] [--action <action>]
             [--since <iso>] [--until <iso>] [--limit <n>]
                                            Who touched which patient data, oldest first
  audit verify                              Check the audit chain; exit code 1 if a record was edited or removed
  console setup-link [--organisation <id>]  A new one-time link for the organisation's first owner (valid 1 hour)
  organisations create --name <name>        Another organisation, with its owner's setup link
  organisations list                        List organisations
  widget-key rotate                         Replace the generated widget signing key; restart every instance
                                            within 7 days (the old key stays published that long)
  retention sweep                           Delete now what is past its retention (the service does it hourly)
  delete note|document|realtime-session|encounter <id>
                                            Delete it now with everything under it (audited)

Options:
  --json    Machine-readable output
  --help    Show this help

The database comes from DATABASE_URL (default ./data/chartwright.db), as for the service.

${REMOTE_USAGE}`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
  url: { type: 'string' },
  name: { type: 'string' },
  organisation: { type: 'string' },
  project: { type: 'string' },
  env: { type: 'string' },
  grace: { type: 'string' },
  origin: { type: 'string', multiple: true },
  'token-lifetime': { type: 'string' },
  'resource-type': { type: 'string' },
  resource: { type: 'string' },
  actor: { type: 'string' },
  'actor-kind': { type: 'string' },
  encounter: { type: 'string' },
  patient: { type: 'string' },
  partner: { type: 'string' },
  action: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  limit: { type: 'string' },
} as const;

const parse = (argv: readonly string[]) =>
  parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });

interface CommandContext {
  values: ReturnType<typeof parse>['values'];
  /** Positionals after the command, e.g. the key id of `keys rotate`. */
  rest: readonly string[];
  print: (json: unknown, human: string) => void;
  migrated: MigrationOutcome;
  projects: ProjectService;
  keys: ApiKeyService;
  partners: PartnerService;
  audit: AuditLog;
  subjects: AuditSubjects;
  deletion: Deletion;
  retention: Retention;
  rotateWidgetSigningKey: () => Promise<{ kid: string; previousKeysPublishedUntil: number }>;
  members: ConsoleMembers;
  organisations: OrganisationsRepository;
}

type Command = (context: CommandContext) => Promise<void>;

const WIDGET_KEY_COMMANDS: Readonly<Record<string, Command>> = {
  'widget-key rotate': async ({ print, rotateWidgetSigningKey }) => {
    const rotated = await rotateWidgetSigningKey();
    const until = new Date(rotated.previousKeysPublishedUntil).toISOString();
    print(
      { kid: rotated.kid, previousKeysPublishedUntil: until },
      `New widget signing key ${rotated.kid}, published now; instances sign with it once restarted.\n` +
        `Restart every instance before ${until}: tokens signed with the previous key are honoured until then.`,
    );
  },
};

const COMMANDS: Readonly<Record<string, Command>> = {
  migrate: ({ migrated, print }) => {
    print(
      { applied: migrated.applied },
      migrated.applied.length === 0 ? 'Database is up to date.' : `Applied: ${migrated.applied.join(', ')}`,
    );
    return Promise.resolve();
  },
  ...MANAGEMENT_COMMANDS,
  ...PRIVACY_COMMANDS,
  ...WIDGET_KEY_COMMANDS,
  ...CONSOLE_COMMANDS,
};

/** What the commands work with, on the database and key file the service uses. */
async function services(
  config: Config,
  database: Database,
  clock: Clock,
): Promise<Omit<CommandContext, 'values' | 'rest' | 'print' | 'migrated'>> {
  const repositories = createRepositories(database);
  const secrets = { file: generatedSecrets(config.keyFile), database: repositories.serviceSecrets, clock };
  return {
    projects: new ProjectService(repositories, clock),
    keys: new ApiKeyService(repositories, clock, config.keyRotationGraceSeconds),
    partners: new PartnerService(repositories, clock, config.keyRotationGraceSeconds),
    audit: await AuditLog.open(config.audit, { events: repositories.auditEvents, ...secrets }),
    subjects: new AuditSubjects(repositories),
    deletion: new Deletion({ repositories, database, liveAudio: null }),
    retention: new Retention({ repositories, database, clock, config }),
    members: new ConsoleMembers(repositories, clock, config.publicBaseUrl),
    organisations: repositories.organisations,
    rotateWidgetSigningKey: () => {
      if (config.widgetJwtPrivateKey !== null) {
        throw new UsageError(
          'the widget signing key is configured (WIDGET_JWT_PRIVATE_KEY): configure the new key and restart every ' +
            'instance; the previous key stays published for 7 days',
        );
      }
      return WidgetTokenSigner.rotateGeneratedKey(repositories, secrets);
    },
  };
}

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
  clock: Clock = systemClock,
): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`chartwright: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [group, action, ...rest] = positionals;
  if (values.help || group === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (group === undefined) {
    io.err(USAGE);
    return 2;
  }
  const print = (json: unknown, human: string) => io.out(values.json ? JSON.stringify(json, null, 2) : human);
  const command = `${group}${action === undefined ? '' : ` ${action}`}`;

  let database;
  try {
    const remote = remoteTarget(values.url, env);
    if (remote !== undefined) {
      await runRemote(command, { values, rest, print }, remote);
      return 0;
    }
    const config = loadConfig(env);
    if (command === 'worker') return await runWorker(config, io);
    database = openDatabase(config.database);
    const migrated = await migrateToLatest(database);
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) throw new UsageError(`unknown command "${command}"; run chartwright --help`);
    await run({ values, rest, print, migrated, ...(await services(config, database, clock)) });
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n').join(' ') : String(error);
    io.err(`chartwright: ${message}`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await database?.close();
  }
}
