import { ApiKeysRepository } from './api-keys.js';
import type { Database } from './database.js';
import { ProjectsRepository } from './projects.js';
import { RealtimeTokensRepository } from './realtime-tokens.js';

export interface Repositories {
  projects: ProjectsRepository;
  apiKeys: ApiKeysRepository;
  realtimeTokens: RealtimeTokensRepository;
}

export function createRepositories(database: Database): Repositories {
  return {
    projects: new ProjectsRepository(database.db),
    apiKeys: new ApiKeysRepository(database.db, database.credentialChanges),
    realtimeTokens: new RealtimeTokensRepository(database.db),
  };
}
