import type {
  CreatePartnerRequest,
  IssuedPartnerKey,
  Partner,
  RotateRequest,
  UpdatePartnerRequest,
} from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
import { segment } from './paths.js';

export type PartnerCreateParams = CreatePartnerRequest;
export type PartnerUpdateParams = UpdatePartnerRequest;

/** A project's EMR partners (`/api/v1/projects/{projectId}/partners`). */
export class Partners {
  constructor(private readonly http: HttpClient) {}

  /** The project's partners, oldest first (secret hints only). */
  async list(projectId: string, options?: RequestOptions): Promise<Partner[]> {
    return this.http.request<Partner[]>({ method: 'GET', path: partnersPath(projectId, 'partners.list'), options });
  }

  /** Registers an EMR; its `partnerKey` (`X-Partner-Key`) is in this answer only. */
  async create(projectId: string, params: PartnerCreateParams, options?: RequestOptions): Promise<IssuedPartnerKey> {
    return this.http.request<IssuedPartnerKey>({
      method: 'POST',
      path: partnersPath(projectId, 'partners.create'),
      body: params,
      options,
      create: true,
    });
  }

  /** Replaces the exact origins allowed to embed the partner's widget. */
  async update(
    projectId: string,
    partnerId: string,
    params: PartnerUpdateParams,
    options?: RequestOptions,
  ): Promise<Partner> {
    return this.http.request<Partner>({
      method: 'PATCH',
      path: partnerPath(projectId, partnerId, 'partners.update'),
      body: params,
      options,
    });
  }

  /**
   * A new secret now (the new `partnerKey` in this answer only); the old one keeps working until
   * `partner.previousSecretExpiresAt`.
   */
  async rotateSecret(
    projectId: string,
    partnerId: string,
    params: RotateRequest = {},
    options?: RequestOptions,
  ): Promise<IssuedPartnerKey> {
    return this.http.request<IssuedPartnerKey>({
      method: 'POST',
      path: `${partnerPath(projectId, partnerId, 'partners.rotateSecret')}/rotate-secret`,
      body: params,
      options,
      create: true,
    });
  }

  /** Revokes the partner at once: its key, widget tokens and sessions; answers the revoked partner. */
  async revoke(projectId: string, partnerId: string, options?: RequestOptions): Promise<Partner> {
    return this.http.request<Partner>({
      method: 'DELETE',
      path: partnerPath(projectId, partnerId, 'partners.revoke'),
      options,
    });
  }
}

function partnersPath(projectId: string, method: string): string {
  return `/api/v1/projects/${segment(projectId, method, 'projectId')}/partners`;
}

function partnerPath(projectId: string, partnerId: string, method: string): string {
  return `${partnersPath(projectId, method)}/${segment(partnerId, method, 'partnerId')}`;
}
