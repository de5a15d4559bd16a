import type { ClientContext } from './core/context.js';
import { CredentialSource } from './core/credentials.js';
import { clientHeaders, detectBrowser } from './core/environment.js';
import { HttpClient } from './core/http.js';
import { resolveOptions, type ChartwrightOptions } from './core/options.js';
import { Notes } from './resources/notes.js';
import { Realtime, RealtimeTokens } from './resources/realtime.js';
import { Templates } from './resources/templates.js';
import { Webhooks } from './resources/webhooks.js';

/**
 * The Chartwright API client.
 *
 * ```ts
 * const chartwright = new Chartwright({ apiKey: process.env.CHARTWRIGHT_API_KEY });
 * const templates = await chartwright.templates.list();
 * ```
 */
export class Chartwright {
  readonly templates: Templates;
  readonly notes: Notes;
  readonly realtime: Realtime;
  /** Webhook endpoints, the callback secret and the delivery log (verify deliveries with `verifyWebhook`). */
  readonly webhooks: Webhooks;
  /** The API address in use, without a trailing slash. */
  readonly baseUrl: string;

  constructor(options: ChartwrightOptions) {
    const resolved = resolveOptions(options);
    const isBrowser = detectBrowser();
    const credentials = new CredentialSource(resolved.apiKey, isBrowser, resolved.logger);
    const http = new HttpClient({
      ...resolved,
      credentials,
      headers: clientHeaders(isBrowser, resolved.defaultHeaders),
    });
    const tokens = new RealtimeTokens(http, isBrowser);
    const context: ClientContext = {
      baseUrl: resolved.baseUrl,
      credential: () => credentials.resolve(),
      fetch: resolved.fetch,
      WebSocket: resolved.WebSocket,
      logger: resolved.logger,
      isBrowser,
      createRealtimeToken: (params, requestOptions) => tokens.create(params, requestOptions),
    };
    this.baseUrl = resolved.baseUrl;
    this.templates = new Templates(http);
    this.notes = new Notes(http);
    this.realtime = new Realtime(context, tokens);
    this.webhooks = new Webhooks(http);
  }
}
