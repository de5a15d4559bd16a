import type {
  AcceptInvitationRequest,
  AdminToken,
  ApiKey,
  AuditEventPage,
  CompleteSetupRequest,
  ConsoleLink,
  ConsoleSession,
  CreateAdminTokenRequest,
  CreateApiKeyRequest,
  CreateInvitationRequest,
  CreatePartnerRequest,
  IssuedAdminToken,
  IssuedApiKey,
  IssuedInvitation,
  IssuedPartnerKey,
  Member,
  MemberList,
  Organisation,
  Partner,
  Project,
  PutSsoRequest,
  RotatedApiKey,
  RotateRequest,
  SignInRequest,
  SsoRedirect,
  StartSsoRequest,
  UpdateMemberRequest,
  UpdatePartnerRequest,
  UsageDay,
} from '@chartwright/protocol';

import { ConsoleHttp, withQuery, type ConsoleHttpOptions } from './console-http.js';

/** The audit log's filters (GET /api/v1/audit-events), as the query sends them. */
export interface AuditFilters {
  actorKind?: string;
  actorId?: string;
  resourceType?: string;
  resourceId?: string;
  action?: string;
  since?: string;
  until?: string;
}

/** The usage query (GET /api/v1/usage). */
export interface UsageFilters {
  projectId?: string;
  environment?: string;
  from?: string;
  to?: string;
}

const id = encodeURIComponent;
const projectPath = (projectId: string) => `/api/v1/projects/${id(projectId)}`;
const keyPath = (projectId: string, keyId: string) => `${projectPath(projectId)}/keys/${id(keyId)}`;
const partnerPath = (projectId: string, partnerId: string) => `${projectPath(projectId)}/partners/${id(partnerId)}`;

/** The console's side of the service: signing in (CONSOLE_SESSION_ENDPOINTS) and the management API. */
export class ConsoleApi {
  private readonly http: ConsoleHttp;

  constructor(options: ConsoleHttpOptions) {
    this.http = new ConsoleHttp(options);
  }

  /** The session behind the cookie; its CSRF token is sent with every change from now on. */
  async session(): Promise<ConsoleSession> {
    return this.opened(await this.http.request<ConsoleSession>('GET', '/api/v1/console/session'));
  }

  async signIn(request: SignInRequest): Promise<ConsoleSession> {
    return this.opened(await this.http.request<ConsoleSession>('POST', '/api/v1/console/sessions', request));
  }

  async completeSetup(request: CompleteSetupRequest): Promise<ConsoleSession> {
    return this.opened(await this.http.request<ConsoleSession>('POST', '/api/v1/console/setup', request));
  }

  async acceptInvitation(request: AcceptInvitationRequest): Promise<ConsoleSession> {
    return this.opened(await this.http.request<ConsoleSession>('POST', '/api/v1/console/invitations/accept', request));
  }

  /** Where to send the browser to sign in at the organisation's OpenID provider. */
  startSso(request: StartSsoRequest): Promise<SsoRedirect> {
    return this.http.request('POST', '/api/v1/console/sso/start', request);
  }

  inspectLink(token: string): Promise<ConsoleLink> {
    return this.http.request('POST', '/api/v1/console/links/inspect', { token });
  }

  async signOut(everywhere: boolean): Promise<void> {
    await this.http.request('DELETE', everywhere ? '/api/v1/console/sessions' : '/api/v1/console/session');
    this.http.useCsrfToken(null);
  }

  organisation(): Promise<Organisation> {
    return this.http.request('GET', '/api/v1/organisation');
  }

  configureSso(request: PutSsoRequest): Promise<Organisation> {
    return this.http.request('PUT', '/api/v1/organisation/sso', request);
  }

  removeSso(): Promise<Organisation> {
    return this.http.request('DELETE', '/api/v1/organisation/sso');
  }

  projects(): Promise<Project[]> {
    return this.http.request('GET', '/api/v1/projects');
  }

  createProject(name: string): Promise<Project> {
    return this.http.request('POST', '/api/v1/projects', { name });
  }

  apiKeys(projectId: string): Promise<ApiKey[]> {
    return this.http.request('GET', `${projectPath(projectId)}/keys`);
  }

  createApiKey(projectId: string, request: CreateApiKeyRequest): Promise<IssuedApiKey> {
    return this.http.request('POST', `${projectPath(projectId)}/keys`, request);
  }

  rotateApiKey(projectId: string, keyId: string, request: RotateRequest): Promise<RotatedApiKey> {
    return this.http.request('POST', `${keyPath(projectId, keyId)}/rotate`, request);
  }

  revokeApiKey(projectId: string, keyId: string): Promise<ApiKey> {
    return this.http.request('DELETE', keyPath(projectId, keyId));
  }

  partners(projectId: string): Promise<Partner[]> {
    return this.http.request('GET', `${projectPath(projectId)}/partners`);
  }

  createPartner(projectId: string, request: CreatePartnerRequest): Promise<IssuedPartnerKey> {
    return this.http.request('POST', `${projectPath(projectId)}/partners`, request);
  }

  updatePartner(projectId: string, partnerId: string, request: UpdatePartnerRequest): Promise<Partner> {
    return this.http.request('PATCH', partnerPath(projectId, partnerId), request);
  }

  rotatePartnerSecret(projectId: string, partnerId: string, request: RotateRequest): Promise<IssuedPartnerKey> {
    return this.http.request('POST', `${partnerPath(projectId, partnerId)}/rotate-secret`, request);
  }

  revokePartner(projectId: string, partnerId: string): Promise<Partner> {
    return this.http.request('DELETE', partnerPath(projectId, partnerId));
  }

  members(): Promise<MemberList> {
    return this.http.request('GET', '/api/v1/members');
  }

  invite(request: CreateInvitationRequest): Promise<IssuedInvitation> {
    return this.http.request('POST', '/api/v1/members/invitations', request);
  }

  cancelInvitation(invitationId: string): Promise<void> {
    return this.http.request('DELETE', `/api/v1/members/invitations/${id(invitationId)}`);
  }

  updateMember(memberId: string, request: UpdateMemberRequest): Promise<Member> {
    return this.http.request('PATCH', `/api/v1/members/${id(memberId)}`, request);
  }

  removeMember(memberId: string): Promise<void> {
    return this.http.request('DELETE', `/api/v1/members/${id(memberId)}`);
  }

  adminTokens(): Promise<AdminToken[]> {
    return this.http.request('GET', '/api/v1/admin-tokens');
  }

  createAdminToken(request: CreateAdminTokenRequest): Promise<IssuedAdminToken> {
    return this.http.request('POST', '/api/v1/admin-tokens', request);
  }

  revokeAdminToken(tokenId: string): Promise<AdminToken> {
    return this.http.request('DELETE', `/api/v1/admin-tokens/${id(tokenId)}`);
  }

  usage(filters: UsageFilters): Promise<UsageDay[]> {
    return this.http.request('GET', withQuery('/api/v1/usage', filters));
  }

  auditEvents(filters: AuditFilters, cursor?: string): Promise<AuditEventPage> {
    return this.http.request('GET', withQuery('/api/v1/audit-events', { ...filters, cursor }));
  }

  private opened(session: ConsoleSession): ConsoleSession {
    this.http.useCsrfToken(session.csrfToken);
    return session;
  }
}

/** The CSV downloads: plain links, which the browser fetches with the session cookie. */
export const usageExportHref = (filters: UsageFilters): string => withQuery('/api/v1/usage/export', filters);
export const auditExportHref = (filters: AuditFilters): string => withQuery('/api/v1/audit-events/export', filters);
