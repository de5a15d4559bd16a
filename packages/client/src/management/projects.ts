import type { CreateProjectRequest, Project } from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';

export type ProjectCreateParams = CreateProjectRequest;

export class Projects {
  constructor(private readonly http: HttpClient) {}

  /** The organisation's projects, oldest first (`GET /api/v1/projects`). */
  async list(options?: RequestOptions): Promise<Project[]> {
    return this.http.request<Project[]>({ method: 'GET', path: '/api/v1/projects', options });
  }

  /** A new project with its sandbox and production environments (`POST /api/v1/projects`). */
  async create(params: ProjectCreateParams, options?: RequestOptions): Promise<Project> {
    return this.http.request<Project>({
      method: 'POST',
      path: '/api/v1/projects',
      body: params,
      options,
      create: true,
    });
  }
}
