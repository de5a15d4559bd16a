import { CSRF_HEADER, errorOfAnswer } from '@chartwright/protocol';

import { ConsoleApiError } from './console-api-error.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ConsoleHttpOptions {
  /** The service's origin: the page's own (`location.origin`). */
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  /** Called when the service says there is no session (never signed in, expired, signed out elsewhere). */
  onSignedOut?: () => void;
}

/** `path?query` from an object's string and number properties; empty and unset ones are left out. */
export function withQuery(path: string, query: object): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * JSON over fetch to the management API with the console's session: the cookie rides along
 * (same origin only), and every change carries the session's CSRF token, which the cookie alone
 * cannot supply to a cross-site form.
 */
export class ConsoleHttp {
  private readonly fetch: typeof globalThis.fetch;
  private csrfToken: string | null = null;

  constructor(private readonly options: ConsoleHttpOptions) {
    // Bound: browsers throw "Illegal invocation" when fetch is called with another `this`.
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The token of the session just read or opened; null once signed out. */
  useCsrfToken(token: string | null): void {
    this.csrfToken = token;
  }

  async request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && this.csrfToken !== null) headers[CSRF_HEADER] = this.csrfToken;
    let response: Response;
    try {
      response = await this.fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        credentials: 'same-origin',
        referrerPolicy: 'no-referrer',
        cache: 'no-store',
      });
    } catch (error) {
      throw new ConsoleApiError('The Chartwright service could not be reached.', 'connection_error', 0, [], {
        cause: error,
      });
    }
    if (!response.ok) {
      const error = await errorOfAnswer(response, ConsoleApiError);
      if (error.signedOut) {
        this.csrfToken = null;
        this.options.onSignedOut?.();
      }
      throw error;
    }
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}
