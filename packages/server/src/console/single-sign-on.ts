import * as oidc from 'openid-client';

import type { Organisation, PutSsoRequest, SsoError } from '@chartwright/protocol';

import type { AuditLog } from '../audit/audit-log.js';
import { hashSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ConsoleMemberRow } from '../store/console-members.js';
import type { OrganisationSsoRow } from '../store/organisation-sso.js';
import type { Repositories } from '../store/repositories.js';
import { requirePermission, type ConsolePrincipal } from './principal.js';
import type { SecretBox } from './secret-box.js';

/** How long a sign-in may wait at the provider. */
const LOGIN_TTL_MS = 10 * 60_000;
/** Providers' discovery documents and keys are kept this long before being fetched again. */
const DISCOVERY_TTL_MS = 60 * 60_000;
const PROVIDER_TIMEOUT_MS = 10_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface SingleSignOnDependencies {
  repositories: Repositories;
  clock: Clock;
  box: SecretBox;
  audit: AuditLog;
  publicBaseUrl: string;
}

/** Where the call came from, for the audit record of a sign-in. */
export interface CallOrigin {
  ip: string;
  requestId: string;
}

const timedFetch: oidc.CustomFetch = (url, options) =>
  fetch(url, { ...options, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) } as RequestInit);

/** https for every provider; plain http only on this machine (a provider under test, a local gateway). */
function providerOptions(issuer: URL): oidc.DiscoveryRequestOptions {
  const insecure = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
  return {
    [oidc.customFetch]: timedFetch,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- marked so only to stand out: plain http on loopback only.
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  };
}

/**
 * Single sign-on with the organisation's OpenID provider (OpenID Connect Core, authorization code
 * flow with PKCE, state and nonce, client_secret_basic). A member is whoever the provider vouches
 * for by a verified e-mail address that is a member of the organisation: the provider signs in,
 * the console's members and roles still decide what they may do. Members are invited first.
 */
export class SingleSignOn {
  /** Per organisation, as of its settings' last change (another instance may change them). */
  readonly #configurations = new Map<string, { configuration: oidc.Configuration; until: number; version: number }>();

  constructor(private readonly deps: SingleSignOnDependencies) {}

  get redirectUri(): string {
    return `${this.deps.publicBaseUrl}/api/v1/console/sso/callback`;
  }

  async organisation(principal: ConsolePrincipal): Promise<Organisation> {
    const organisation = await this.deps.repositories.organisations.get(principal.organisationId);
    const sso = await this.deps.repositories.organisationSso.get(principal.organisationId);
    return {
      id: principal.organisationId,
      name: organisation?.name ?? '',
      sso:
        sso === undefined
          ? null
          : {
              issuer: sso.issuer,
              clientId: sso.client_id,
              redirectUri: this.redirectUri,
              passwordSignIn: sso.password_sign_in === 1,
              updatedAt: new Date(sso.updated_at).toISOString(),
            },
      ssoRedirectUri: this.redirectUri,
    };
  }

  /** Checks the provider answers its discovery document before anyone depends on it. */
  async configure(principal: ConsolePrincipal, input: PutSsoRequest): Promise<Organisation> {
    requirePermission(principal, 'organisation:manage', 'change how members sign in');
    const issuer = new URL(input.issuer);
    if (issuer.protocol === 'http:' && !LOOPBACK_HOSTS.has(issuer.hostname)) {
      throw AppError.invalidBody([{ path: 'issuer', message: 'must be https (http only for localhost)' }]);
    }
    try {
      await oidc.discovery(issuer, input.clientId, input.clientSecret, undefined, providerOptions(issuer));
    } catch {
      throw AppError.invalidBody([
        { path: 'issuer', message: 'did not answer an OpenID Connect discovery document for this issuer' },
      ]);
    }
    await this.deps.repositories.organisationSso.put({
      organisation_id: principal.organisationId,
      issuer: input.issuer,
      client_id: input.clientId,
      client_secret_sealed: this.deps.box.seal(input.clientSecret),
      password_sign_in: input.passwordSignIn ? 1 : 0,
      updated_at: this.deps.clock.now(),
    });
    return this.organisation(principal);
  }

  async remove(principal: ConsolePrincipal): Promise<Organisation> {
    requirePermission(principal, 'organisation:manage', 'change how members sign in');
    await this.deps.repositories.organisationSso.delete(principal.organisationId);
    return this.organisation(principal);
  }

  /** Whether `member` may sign in with a password: owners always (break-glass), others unless SSO only. */
  async passwordAllowed(member: ConsoleMemberRow): Promise<boolean> {
    if (member.role === 'owner') return true;
    const sso = await this.deps.repositories.organisationSso.get(member.organisation_id);
    return sso === undefined || sso.password_sign_in === 1;
  }

  /** The provider's authorization URL for the organisation `email` belongs to. */
  async start(email: string): Promise<{ authorizationUrl: string }> {
    const member = await this.deps.repositories.consoleMembers.findByEmail(email.trim().toLowerCase());
    const sso =
      member === undefined ? undefined : await this.deps.repositories.organisationSso.get(member.organisation_id);
    if (member === undefined || sso === undefined) {
      throw new AppError('sso_not_available', 'Single sign-on is not available for this e-mail address.');
    }
    const configuration = await this.configuration(sso);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await this.deps.repositories.organisationSso.insertLogin({
      state_hash: hashSecret(state),
      organisation_id: sso.organisation_id,
      code_verifier: codeVerifier,
      nonce,
      expires_at: this.deps.clock.now() + LOGIN_TTL_MS,
    });
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      login_hint: member.email,
    });
    return { authorizationUrl: url.href };
  }

  /** The provider's answer at the callback: the member it signs in, or why not. Recorded either way. */
  async complete(query: string, origin: CallOrigin): Promise<ConsoleMemberRow | { error: SsoError }> {
    const outcome = await this.redeem(new URL(`${this.redirectUri}?${query}`));
    const member = 'error' in outcome ? null : outcome;
    // A refused sign-in belongs to the organisation whose provider answered, once that is known.
    const organisationId = 'error' in outcome ? outcome.organisationId : outcome.organisation_id;
    await this.deps.audit.record({
      actor: {
        kind: 'console_member',
        id: member?.id ?? null,
        projectId: null,
        environment: null,
        partnerId: null,
        organisationId,
      },
      action: 'sign_in',
      resourceType: 'console_session',
      resourceId: null,
      encounterId: null,
      patientKey: null,
      outcome: member === null ? 'failure' : 'success',
      status: 303,
      errorCode: 'error' in outcome ? `sso_${outcome.error}` : null,
      ip: origin.ip,
      requestId: origin.requestId,
    });
    return 'error' in outcome ? { error: outcome.error } : outcome;
  }

  private async redeem(callback: URL): Promise<ConsoleMemberRow | { error: SsoError; organisationId: string | null }> {
    const state = callback.searchParams.get('state');
    const login =
      state === null
        ? undefined
        : await this.deps.repositories.organisationSso.takeLogin(hashSecret(state), this.deps.clock.now());
    if (state === null || login === undefined) return { error: 'expired', organisationId: null };
    const refused = (error: SsoError) => ({ error, organisationId: login.organisation_id });
    if (callback.searchParams.has('error')) {
      return refused(callback.searchParams.get('error') === 'access_denied' ? 'denied' : 'provider_error');
    }
    const sso = await this.deps.repositories.organisationSso.get(login.organisation_id);
    if (sso === undefined) return refused('provider_error');
    let claims: Record<string, unknown> | undefined;
    try {
      const configuration = await this.configuration(sso);
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      // Providers may keep the e-mail out of the ID token (OpenID Connect Core 5.4): ask UserInfo,
      // which must answer for the same subject.
      if (claims !== undefined && typeof claims['email'] !== 'string') {
        claims = await oidc.fetchUserInfo(configuration, tokens.access_token, String(claims['sub']));
      }
    } catch {
      return refused('provider_error');
    }
    const email = typeof claims?.['email'] === 'string' ? claims['email'].toLowerCase() : undefined;
    if (email === undefined || claims?.['email_verified'] !== true) return refused('email_not_verified');
    const member = await this.deps.repositories.consoleMembers.findByEmail(email);
    if (member?.organisation_id !== sso.organisation_id) return refused('not_a_member');
    return member;
  }

  private async configuration(sso: OrganisationSsoRow): Promise<oidc.Configuration> {
    const cached = this.#configurations.get(sso.organisation_id);
    if (cached?.version === sso.updated_at && cached.until > Date.now()) {
      return cached.configuration;
    }
    const issuer = new URL(sso.issuer);
    const configuration = await oidc.discovery(
      issuer,
      sso.client_id,
      undefined,
      oidc.ClientSecretBasic(this.deps.box.open(sso.client_secret_sealed)),
      providerOptions(issuer),
    );
    this.#configurations.set(sso.organisation_id, {
      configuration,
      until: Date.now() + DISCOVERY_TTL_MS,
      version: sso.updated_at,
    });
    return configuration;
  }
}
