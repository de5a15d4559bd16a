import type { IssuedApiKey } from './auth/api-keys.js';
import { ApiKeyService } from './auth/api-keys.js';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import { ProjectService } from './projects/project-service.js';
import type { ProjectSummary } from './projects/project-service.js';
import type { Repositories } from './store/repositories.js';
import { PartnerService, type IssuedPartnerKey } from './partners/partner-service.js';

const DEMO_PROJECT_NAME = 'Demo project';
export const DEMO_PARTNER_NAME = 'Demo EMR';

export interface DemoSeed {
  project: ProjectSummary;
  key: IssuedApiKey;
}

/** On a service with no projects yet, creates a demo project with a sandbox key; otherwise does nothing. */
export async function seedDemoProject(
  repositories: Repositories,
  clock: Clock,
  config: Config,
): Promise<DemoSeed | null> {
  const projects = new ProjectService(repositories, clock);
  if ((await projects.count()) > 0) return null;
  const project = await projects.create(DEMO_PROJECT_NAME);
  const keys = new ApiKeyService(repositories, clock, config.keyRotationGraceSeconds);
  const key = await keys.create({ projectId: project.id, environment: 'test', name: 'demo' });
  return { project, key };
}

/**
 * The partner of the demo EMR that `npm start` serves at `origin`, in the demo project's sandbox:
 * created on first start, and on every later start given a new secret at once (no grace), since
 * only a hash of the old one is kept and the demo EMR must hold the key in memory.
 */
export async function seedDemoPartner(
  repositories: Repositories,
  clock: Clock,
  config: Config,
  origin: string,
): Promise<IssuedPartnerKey> {
  const partners = new PartnerService(repositories, clock, config.keyRotationGraceSeconds);
  const existing = (await partners.list()).find(
    (partner) =>
      partner.name === DEMO_PARTNER_NAME && partner.status === 'active' && partner.allowedOrigins.includes(origin),
  );
  if (existing !== undefined) return partners.rotateSecret(existing.id, { graceSeconds: 0 });
  const projects = new ProjectService(repositories, clock);
  const project =
    (await projects.list()).find((candidate) => candidate.name === DEMO_PROJECT_NAME) ??
    (await projects.create(DEMO_PROJECT_NAME));
  return partners.create({
    projectId: project.id,
    environment: 'test',
    name: DEMO_PARTNER_NAME,
    allowedOrigins: [origin],
  });
}

/** The first-start banner: the key appears here once and is never logged. */
export function demoBanner(seed: DemoSeed, baseUrl: string): string {
  const key = seed.key.secret;
  return [
    '',
    'Chartwright created a demo project on first start.',
    `  project: ${seed.project.id} (${seed.project.name})`,
    `  sandbox key (shown once, store it now): ${key}`,
    '',
    'Try it:',
    `  curl -s ${baseUrl}/api/v1/templates -H "Authorization: Bearer ${key}"`,
    `  curl -s -X POST ${baseUrl}/api/v1/notes -H "Authorization: Bearer ${key}" \\`,
    `       -H "Content-Type: application/json" \\`,
    `       -d '{"template_id":"soap","conversation_text":"[doctor] what brings you in ?\\n[patient] a cough for two weeks , no fever ."}'`,
    `  curl -s -X POST ${baseUrl}/api/v1/realtime/tokens -H "Authorization: Bearer ${key}" \\`,
    `       -H "Content-Type: application/json" -d '{"expiresInSeconds": 3600}'`,
    '',
    'More keys: npx chartwright keys create --project ' + seed.project.id + ' --env test',
    '',
  ].join('\n');
}
