import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Repositories } from '../store/repositories.js';
import { ConsoleMembers } from './members.js';

/**
 * What every start prints for a person (never logged): where the API and the console are and how
 * to get a key. While the deployment's organisation has no owner, a fresh one-time setup link (the
 * previous one stops working): there is never a default password, and whoever holds the link
 * becomes the owner.
 */
export async function startBanner(
  repositories: Repositories,
  clock: Clock,
  config: Pick<Config, 'publicBaseUrl' | 'sandboxBaseUrl'>,
): Promise<string> {
  const members = new ConsoleMembers(repositories, clock, config.publicBaseUrl);
  const organisation = await repositories.organisations.first();
  const api = [
    '',
    `Chartwright is running: API ${config.publicBaseUrl}/api/v1 (sandbox keys: ${config.sandboxBaseUrl}/api/v1)`,
  ];
  if (await members.hasOwner(organisation.id)) {
    return [
      ...api,
      `  console: ${config.publicBaseUrl}/console — keys under Settings → API keys,`,
      '  or on this server: npx chartwright keys create --project <projectId> --env test|live',
      '',
    ].join('\n');
  }
  const link = await members.issueSetupLink(organisation.id);
  return [
    ...api,
    'Set up the console (API keys, partners, members, usage, audit log): open this one-time link',
    `  ${link.url}`,
    `  valid until ${link.expiresAt}; a new one: npx chartwright console setup-link`,
    '',
  ].join('\n');
}
