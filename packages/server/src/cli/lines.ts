import type { ApiKey, Partner, Project } from '@chartwright/protocol';

/** One line of human output per record, local and remote alike. */

export function partnerLine(partner: Partner): string {
  return `${partner.id}  ${partner.environment}  ${partner.secretHint}  ${partner.status}  ${partner.name}  ${partner.allowedOrigins.join(',')}  ${partner.projectId}`;
}

export function keyLine(key: ApiKey): string {
  const until = key.status === 'grace' ? ` until ${key.expiresAt ?? ''}` : '';
  return `${key.id}  ${key.environment}  ${key.hint}  ${key.status}${until}  ${key.name}  ${key.projectId}`;
}

export function projectLine(project: Project): string {
  return `${project.id}  ${project.name}  created ${project.createdAt}`;
}
