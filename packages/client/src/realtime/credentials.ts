import { parseCredentialPrefix } from '@chartwright/protocol';

import type { ClientContext } from '../core/context.js';
import { permissionDenied } from '../core/credentials.js';
import { RealtimeError } from './errors.js';
import type { RealtimeTokenCallback } from './options.js';

export interface RealtimeCredential {
  value: string;
  /** When it stops opening sockets (epoch ms); `undefined` when unknown. */
  expiresAtMs: number | undefined;
}

type Source =
  | { kind: 'fixed'; token: string }
  | { kind: 'callback'; fetch: RealtimeTokenCallback }
  | { kind: 'client'; resolve: () => Promise<string> };

/**
 * The credential each socket of a session opens with: a fixed token, a token callback, or the
 * client's own key (resolved again per socket, so an `apiKey` function can hand out a new one).
 */
export class RealtimeCredentials {
  private readonly source: Source;
  private current: RealtimeCredential | undefined;

  constructor(
    token: string | RealtimeTokenCallback | undefined,
    private readonly context: Pick<ClientContext, 'credential' | 'isBrowser'>,
  ) {
    if (typeof token === 'string') this.source = { kind: 'fixed', token };
    else if (token === undefined) this.source = { kind: 'client', resolve: context.credential };
    else this.source = { kind: 'callback', fetch: token };
  }

  /** True when the session can fetch a token ahead of expiry (a token callback). */
  get expiring(): boolean {
    return this.source.kind === 'callback';
  }

  /** The credential for the next socket: the current one, or a fresh one after `invalidate()`. */
  async get(): Promise<RealtimeCredential> {
    if (this.current !== undefined && this.source.kind !== 'client') return this.current;
    const credential = await this.fetch();
    this.refuseInBrowser(credential.value);
    this.current = credential;
    return credential;
  }

  /** True when another credential can come from this source: a fixed token cannot be replaced. */
  get renewable(): boolean {
    return this.source.kind !== 'fixed';
  }

  /**
   * The service refused the current credential (or it is about to expire): the next `get()`
   * fetches another, when the source can give one.
   */
  invalidate(): void {
    if (this.renewable) this.current = undefined;
  }

  /** When the current credential expires (epoch ms), when known. */
  get expiresAtMs(): number | undefined {
    return this.current?.expiresAtMs;
  }

  private async fetch(): Promise<RealtimeCredential> {
    switch (this.source.kind) {
      case 'fixed':
        return { value: this.source.token, expiresAtMs: undefined };
      case 'client':
        return { value: await this.source.resolve(), expiresAtMs: undefined };
      case 'callback': {
        const grant = await this.source.fetch().catch((error: unknown) => {
          throw new RealtimeError('The token callback failed; see `cause`.', 'token_callback_failed', false, {
            cause: error,
          });
        });
        const expiresAtMs = grant.expiresAt instanceof Date ? grant.expiresAt.getTime() : Date.parse(grant.expiresAt);
        return { value: grant.token, expiresAtMs: Number.isNaN(expiresAtMs) ? undefined : expiresAtMs };
      }
    }
  }

  /** A permanent key never belongs in a page: the service cannot tell the page's user from you. */
  private refuseInBrowser(credential: string): void {
    if (this.context.isBrowser && parseCredentialPrefix(credential)?.kind === 'api_key') {
      throw permissionDenied(
        'permanent_key_in_browser',
        'A permanent sk_ key may not open a realtime session in a browser: have your server mint a svc_rt_ ' +
          'token with realtime.tokens.create() and pass it (or a callback fetching it) as `token`.',
      );
    }
  }
}
