import type { Clock } from '../clock.js';
import type { Repositories } from '../store/repositories.js';
import { ConsoleMembers } from './members.js';

/**
 * While the deployment's organisation has no owner, each start prints a fresh one-time setup link
 * (the previous one stops working): there is never a default password. Printed, never logged,
 * like the demo key: whoever holds the link becomes the owner.
 */
export async function consoleSetupBanner(
  repositories: Repositories,
  clock: Clock,
  publicBaseUrl: string,
): Promise<string | null> {
  const members = new ConsoleMembers(repositories, clock, publicBaseUrl);
  const organisation = await repositories.organisations.first();
  if (await members.hasOwner(organisation.id)) return null;
  const link = await members.issueSetupLink(organisation.id);
  return [
    '',
    'Set up the console (API keys, partners, members, usage, audit log): open this one-time link',
    `  ${link.url}`,
    `  valid until ${link.expiresAt}; a new one: npx chartwright console setup-link`,
    '',
  ].join('\n');
}
