import type { Environment } from '@chartwright/protocol';

/** Times are epoch milliseconds in both databases, so comparisons behave the same everywhere. */
export interface ProjectsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  environment: Environment;
  name: string;
  secret_hash: string;
  hint: string;
  created_at: number;
  /** Set when the key is rotated: the end of its grace period. */
  expires_at: number | null;
  revoked_at: number | null;
  /** The key that replaced this one at rotation. */
  replaced_by: string | null;
}

export interface RealtimeTokensTable {
  id: string;
  secret_hash: string;
  project_id: string;
  environment: Environment;
  api_key_id: string;
  created_at: number;
  expires_at: number;
}

export interface DatabaseSchema {
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  realtime_tokens: RealtimeTokensTable;
}
