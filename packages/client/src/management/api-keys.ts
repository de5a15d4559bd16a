import type {
  ApiKey,
  CreateApiKeyRequest,
  IssuedApiKey,
  ListApiKeysQuery,
  RotateRequest,
  RotatedApiKey,
} from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
import { segment, withQuery } from './paths.js';

export type ApiKeyListParams = ListApiKeysQuery;
export type ApiKeyCreateParams = CreateApiKeyRequest;
/** `graceSeconds`: how long the old secret keeps working (default the service's `KEY_ROTATION_GRACE_SECONDS`). */
export type RotateParams = RotateRequest;

/** A project's API keys (`/api/v1/projects/{projectId}/keys`): hints and metadata, a secret only when made. */
export class ApiKeys {
  constructor(private readonly http: HttpClient) {}

  /** The project's keys, oldest first; `{ environment }` keeps one environment's. */
  async list(projectId: string, params?: ApiKeyListParams, options?: RequestOptions): Promise<ApiKey[]> {
    const path = withQuery(keysPath(projectId, 'keys.list'), params, 'keys.list');
    return this.http.request<ApiKey[]>({ method: 'GET', path, options });
  }

  /** A new key for `environment`; its `secret` is in this answer only. */
  async create(projectId: string, params: ApiKeyCreateParams, options?: RequestOptions): Promise<IssuedApiKey> {
    return this.http.request<IssuedApiKey>({
      method: 'POST',
      path: keysPath(projectId, 'keys.create'),
      body: params,
      options,
      create: true,
    });
  }

  /**
   * A replacement now (its `secret` in this answer only); the old key keeps working until
   * `previous.expiresAt`.
   */
  async rotate(
    projectId: string,
    keyId: string,
    params: RotateParams = {},
    options?: RequestOptions,
  ): Promise<RotatedApiKey> {
    return this.http.request<RotatedApiKey>({
      method: 'POST',
      path: `${keysPath(projectId, 'keys.rotate')}/${segment(keyId, 'keys.rotate', 'keyId')}/rotate`,
      body: params,
      options,
      create: true,
    });
  }

  /** Revokes the key at once, with the realtime tokens it minted; answers the revoked key. */
  async revoke(projectId: string, keyId: string, options?: RequestOptions): Promise<ApiKey> {
    return this.http.request<ApiKey>({
      method: 'DELETE',
      path: `${keysPath(projectId, 'keys.revoke')}/${segment(keyId, 'keys.revoke', 'keyId')}`,
      options,
    });
  }
}

function keysPath(projectId: string, method: string): string {
  return `/api/v1/projects/${segment(projectId, method, 'projectId')}/keys`;
}
