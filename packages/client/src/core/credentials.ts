import { parseCredentialPrefix } from '@chartwright/protocol';

import { ChartwrightError, PermissionDeniedError } from '../errors.js';
import type { Logger } from './context.js';

/** A key or token, or a function returning one (called for every request, so rotated keys are picked up). */
export type ApiKeySource = string | (() => string | Promise<string>);

/** A refusal the library makes itself, worded and coded as the service would answer it. */
export function permissionDenied(code: string, message: string): PermissionDeniedError {
  return new PermissionDeniedError({
    status: 403,
    code,
    type: 'permission_error',
    message: `403 ${code}: ${message}`,
    requestId: undefined,
    param: undefined,
    details: [],
    headers: new Headers(),
  });
}

// Once per page (per loaded copy of the library), however many clients the page creates.
let warnedAboutPermanentKey = false;

/**
 * Resolves the client's `apiKey` for one use and applies the browser rules of the spec: a
 * permanent `sk_` key seen in a browser is warned about (once), and a temporary `svc_rt_` token
 * never reaches a REST route.
 */
export class CredentialSource {
  constructor(
    private readonly apiKey: ApiKeySource,
    private readonly isBrowser: boolean,
    private readonly logger: Logger,
  ) {
    if (typeof apiKey === 'string') this.warnIfPermanentKeyInBrowser(apiKey);
  }

  async resolve(): Promise<string> {
    const credential = typeof this.apiKey === 'string' ? this.apiKey : await this.callApiKeyFunction(this.apiKey);
    if (typeof credential !== 'string' || credential.trim() === '') {
      throw new ChartwrightError(
        'The apiKey function returned no key (an empty or non-string value).',
        'invalid_api_key_option',
      );
    }
    this.warnIfPermanentKeyInBrowser(credential);
    return credential;
  }

  /** The credential for a REST call; a temporary token fails here, without a network call. */
  async resolveForRest(): Promise<string> {
    const credential = await this.resolve();
    if (parseCredentialPrefix(credential)?.kind === 'realtime_token') {
      throw permissionDenied(
        'temporary_token_not_allowed',
        'Temporary svc_rt_ tokens can only open the realtime WebSocket (realtime.connect). Call templates, notes and realtime.tokens.create from your server with an sk_ key.',
      );
    }
    return credential;
  }

  private async callApiKeyFunction(source: () => string | Promise<string>): Promise<unknown> {
    try {
      return await source();
    } catch (error) {
      throw new ChartwrightError('The apiKey function failed; see `cause`.', 'api_key_unavailable', { cause: error });
    }
  }

  private warnIfPermanentKeyInBrowser(credential: string): void {
    if (!this.isBrowser || warnedAboutPermanentKey) return;
    if (parseCredentialPrefix(credential)?.kind !== 'api_key') return;
    warnedAboutPermanentKey = true;
    this.logger.warn(
      'A permanent sk_ key is being used in a browser, where anyone can read it. Mint a temporary svc_rt_ token on your server (realtime.tokens.create) and give the browser that instead.',
      { code: 'permanent_key_in_browser' },
    );
  }
}
