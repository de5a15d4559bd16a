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

  async create(name: string): Promise<ProjectSummary> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 200) {
      throw AppError.invalidBody([{ path: 'name', message: 'must be 1 to 200 characters' }]);
    }
    const row: ProjectRow = { id: generateId('proj'), name: trimmed, created_at: this.clock.now() };
    await this.repositories.projects.insert(row);
    return summarize(row);
  }

  async list(): Promise<ProjectSummary[]> {
    return (await this.repositories.projects.list()).map(summarize);
  }

  async count(): Promise<number> {
    return this.repositories.projects.count();
  }
}
