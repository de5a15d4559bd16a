import type { CreateRealtimeTokenRequest, RealtimeToken } from '@chartwright/protocol';

import type { ClientContext } from '../core/context.js';
import { permissionDenied } from '../core/credentials.js';
import type { HttpClient, RequestOptions } from '../core/http.js';
import { connectRealtime } from '../realtime/connect.js';
import type { RealtimeConnectOptions, RealtimeSession } from '../realtime/index.js';

export type RealtimeTokenCreateParams = CreateRealtimeTokenRequest;

export class RealtimeTokens {
  constructor(
    private readonly http: HttpClient,
    private readonly isBrowser: boolean,
  ) {}

  /**
   * Mints a temporary `svc_rt_` token for a browser (`POST /api/v1/realtime/tokens`), valid
   * `expiresInSeconds` (60–3600, default 3600). Server side only: it needs a permanent `sk_` key,
   * so a browser is refused before any request is made.
   */
  async create(params: RealtimeTokenCreateParams = {}, options?: RequestOptions): Promise<RealtimeToken> {
    if (this.isBrowser) {
      throw permissionDenied(
        'token_creation_blocked_in_browser',
        'realtime.tokens.create is blocked in browsers: minting needs a permanent sk_ key, which must stay on your server. Mint the token on your server and pass it to realtime.connect({ token }) here.',
      );
    }
    return this.http.request<RealtimeToken>({
      method: 'POST',
      path: '/api/v1/realtime/tokens',
      body: params,
      options,
      create: true,
    });
  }
}

export class Realtime {
  readonly tokens: RealtimeTokens;

  constructor(
    private readonly context: ClientContext,
    tokens: RealtimeTokens,
  ) {
    this.tokens = tokens;
  }

  /** Opens a realtime transcription session (`GET /api/v1/realtime` over WebSocket). */
  connect(options: RealtimeConnectOptions): Promise<RealtimeSession> {
    return connectRealtime(this.context, options);
  }
}
