import type { ConsoleMembers } from '../console/members.js';
import type { OrganisationsRepository } from '../store/organisations.js';
import { required } from './arguments.js';
import { UsageError } from './usage.js';

/** What the console commands need from a CLI invocation. */
export interface ConsoleCommandContext {
  values: { organisation?: string | undefined; name?: string | undefined };
  print: (json: unknown, human: string) => void;
  members: ConsoleMembers;
  organisations: OrganisationsRepository;
}

type ConsoleCommand = (context: ConsoleCommandContext) => Promise<void>;

const linkText = (url: string, expiresAt: string) =>
  `One-time setup link for the organisation's owner (valid until ${expiresAt}; keep it private):\n${url}`;

/**
 * The operator's console commands, on the server: the first-start setup link again (the one
 * `npm start` printed expired, or went to a log no one reads), and further organisations.
 */
export const CONSOLE_COMMANDS: Readonly<Record<string, ConsoleCommand>> = {
  'console setup-link': async ({ values, print, members, organisations }) => {
    const organisation =
      values.organisation === undefined ? await organisations.first() : await organisations.get(values.organisation);
    if (organisation === undefined) throw new UsageError(`no organisation has the id ${values.organisation ?? ''}`);
    if (await members.hasOwner(organisation.id)) {
      throw new UsageError(
        `${organisation.name} already has an owner: members are invited in the console (Members), by an owner`,
      );
    }
    const link = await members.issueSetupLink(organisation.id);
    print({ organisationId: organisation.id, ...link }, linkText(link.url, link.expiresAt));
  },
  'organisations create': async ({ values, print, members }) => {
    const created = await members.createOrganisation(required(values.name, '--name'));
    print(
      { id: created.id, name: created.name, setupLink: created.setupLink },
      `Created organisation ${created.id} (${created.name})\n${linkText(created.setupLink.url, created.setupLink.expiresAt)}`,
    );
  },
  'organisations list': async ({ print, organisations }) => {
    const list = await organisations.list();
    print(
      list.map((row) => ({ id: row.id, name: row.name, createdAt: new Date(row.created_at).toISOString() })),
      list.map((row) => `${row.id}  ${row.name}`).join('\n'),
    );
  },
};
