import type { Clock } from '../clock.js';
import { generateId } from '../auth/secrets.js';
import { AppError } from '../errors.js';
import type { ProjectRow } from '../store/projects.js';
import type { Repositories } from '../store/repositories.js';

export interface ProjectSummary {
  id: string;
  name: string;
  createdAt: string;
}

const summarize = (row: ProjectRow): ProjectSummary => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
});

/** A project owns a sandbox (`test`) and a production (`live`) environment; keys belong to one of them. */
export class ProjectService {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
  ) {}

  /** A project of `organisationId`, or of the deployment's first organisation (the CLI's default). */
  async create(name: string, organisationId?: string): Promise<ProjectSummary> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 200) {
      throw AppError.invalidBody([{ path: 'name', message: 'must be 1 to 200 characters' }]);
    }
    const row: ProjectRow = {
      id: generateId('proj'),
      name: trimmed,
      created_at: this.clock.now(),
      organisation_id: organisationId ?? (await this.repositories.organisations.first()).id,
    };
    await this.repositories.projects.insert(row);
    return summarize(row);
  }

  /** Every project, or an organisation's. */
  async list(organisationId?: string): Promise<ProjectSummary[]> {
    return (await this.repositories.projects.list(organisationId)).map(summarize);
  }

  /** The organisation's project, or 404: another organisation's projects do not exist for it. */
  async requireInOrganisation(projectId: string, organisationId: string): Promise<ProjectSummary> {
    const row = await this.repositories.projects.get(projectId);
    if (row?.organisation_id !== organisationId) {
      throw new AppError('project_not_found', `No project has the id ${projectId}.`);
    }
    return summarize(row);
  }

  async count(): Promise<number> {
    return this.repositories.projects.count();
  }
}
