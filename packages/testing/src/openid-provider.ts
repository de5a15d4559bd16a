import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** Someone the provider knows, and what it says about them. */
export interface ProviderAccount {
  email: string;
  emailVerified: boolean;
}

export interface OpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the provider's login step next; null: they refuse (access_denied). */
  signInAs(accountId: string | null): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (the `oidc-provider` package, certified by the OpenID Foundation) on a
 * loopback port, with one confidential client. Its login and consent steps need no person: the
 * account the test chose signs in and grants the scopes, as a user would by clicking through.
 */
export async function startOpenIdProvider(options: {
  redirectUri: string;
  accounts: Readonly<Record<string, ProviderAccount>>;
}): Promise<OpenIdProvider> {
  const clientId = 'chartwright-console';
  const clientSecret = 'provider-test-client-secret-0123456789';
  let signInAs: string | null = Object.keys(options.accounts)[0] ?? null;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Its own signing key, made per provider, as a deployed provider has (not the package's dev keys).
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const configuration: Configuration = {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-provider' }] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_context, accountId) => {
      const account = options.accounts[accountId];
      if (account === undefined) return undefined;
      return {
        accountId,
        claims: () => ({ sub: accountId, email: account.email, email_verified: account.emailVerified }),
      };
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['provider-test-cookie-key'] },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  async function interact(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(request, response);
    if (signInAs === null) {
      await provider.interactionFinished(
        request,
        response,
        { error: 'access_denied' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: signInAs } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({ accountId: details.session?.accountId ?? signInAs, clientId });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith('/interaction/') === true) {
      interact(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    void callback(request, response);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (accountId) => {
      signInAs = accountId;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Follows a browser's redirects from the provider's authorization URL until it is sent back to
 * `redirectUri`, keeping the provider's cookies; returns that last URL's query.
 */
export async function followToRedirect(authorizationUrl: string, redirectUri: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(redirectUri)) return new URL(url).search.slice(1);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const separator = pair?.indexOf('=') ?? -1;
      if (pair !== undefined && separator > 0) cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    const location = response.headers.get('location');
    if (location === null)
      throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}
