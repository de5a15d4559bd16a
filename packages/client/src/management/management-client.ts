import { CREDENTIAL_PREFIXES, parseCredentialPrefix } from '@chartwright/protocol';

import { permissionDenied } from '../core/credentials.js';
import { clientHeaders, detectBrowser } from '../core/environment.js';
import { HttpClient } from '../core/http.js';
import { checkTransportOptions, invalidOptions, type TransportOptions } from '../core/options.js';
import { AdminTokens } from './admin-tokens.js';
import { ApiKeys } from './api-keys.js';
import { AuditEvents } from './audit-events.js';
import { Members } from './members.js';
import { Organisation } from './organisation.js';
import { Partners } from './partners.js';
import { Projects } from './projects.js';
import { Usage } from './usage.js';

export interface ManagementClientOptions extends TransportOptions {
  /**
   * An organisation admin token (`cw_admin_…`), made by an owner in the console or with
   * `adminTokens.create`. It acts with its role on every project: keep it in a server's or CI's
   * secrets, never in a page.
   */
  adminToken: string;
  /** The deployment's address, such as `https://chartwright.example.org`. */
  baseUrl: string;
}

/**
 * Refuses, before any request, a credential the management API would refuse: a project's `sk_`
 * key or `svc_rt_` token (as the service would, with its code), or anything else that is not an
 * admin token. Returns the problem to report with the other options, if any.
 */
function adminTokenProblem(adminToken: unknown): string | undefined {
  if (typeof adminToken !== 'string' || adminToken.trim() === '') {
    return `adminToken: is required (an organisation admin token, ${CREDENTIAL_PREFIXES.adminToken}…)`;
  }
  if (parseCredentialPrefix(adminToken) !== null) {
    throw permissionDenied(
      'project_credential_not_allowed',
      `ManagementClient needs an organisation admin token (${CREDENTIAL_PREFIXES.adminToken}…); project keys (sk_) and realtime tokens (svc_rt_) cannot manage the organisation. Use new Chartwright({ apiKey }) for the project API.`,
    );
  }
  return adminToken.startsWith(CREDENTIAL_PREFIXES.adminToken)
    ? undefined
    : `adminToken: must be an organisation admin token (${CREDENTIAL_PREFIXES.adminToken}…)`;
}

/**
 * The management API client: projects, their keys and partners, members, admin tokens, usage
 * and the audit log, with an organisation admin token.
 *
 * ```ts
 * const management = new ManagementClient({ adminToken: process.env.CHARTWRIGHT_ADMIN_TOKEN!, baseUrl });
 * const { key, secret } = await management.keys.create(projectId, { environment: 'live', name: 'billing' });
 * ```
 */
export class ManagementClient {
  readonly organisation: Organisation;
  readonly projects: Projects;
  readonly keys: ApiKeys;
  readonly partners: Partners;
  readonly members: Members;
  readonly adminTokens: AdminTokens;
  readonly usage: Usage;
  readonly auditEvents: AuditEvents;
  /** The API address in use, without a trailing slash. */
  readonly baseUrl: string;

  constructor(options: ManagementClientOptions) {
    // Spread, because JavaScript callers may pass nothing at all.
    const given: Partial<ManagementClientOptions> = { ...options };
    const problems: string[] = [];
    const tokenProblem = adminTokenProblem(given.adminToken);
    if (tokenProblem !== undefined) problems.push(tokenProblem);
    const transport = checkTransportOptions(given, given.baseUrl, problems);
    const adminToken = given.adminToken;
    if (problems.length > 0 || transport === undefined || adminToken === undefined) throw invalidOptions(problems);
    const http = new HttpClient({
      ...transport,
      credentials: { resolveForRest: () => Promise.resolve(adminToken) },
      headers: clientHeaders(detectBrowser(), transport.defaultHeaders),
    });
    this.baseUrl = transport.baseUrl;
    this.projects = new Projects(http);
    this.keys = new ApiKeys(http);
    this.partners = new Partners(http);
    this.members = new Members(http);
    this.organisation = new Organisation(http);
    this.adminTokens = new AdminTokens(http);
    this.usage = new Usage(http);
    this.auditEvents = new AuditEvents(http);
  }
}
