export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The event shapes the library reads from a WebSocket (a subset of the WHATWG events). */
export interface WebSocketMessageEventLike {
  readonly data: unknown;
}
export interface WebSocketCloseEventLike {
  readonly code: number;
  readonly reason: string;
  readonly wasClean?: boolean;
}

export interface WebSocketEventMapLike {
  open: unknown;
  message: WebSocketMessageEventLike;
  close: WebSocketCloseEventLike;
  error: unknown;
}

/** The subset of the WHATWG WebSocket the library uses (browsers, Node >= 22 global, or the `ws` package). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly protocol: string;
  readonly bufferedAmount: number;
  send(data: string | ArrayBuffer | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  addEventListener<K extends keyof WebSocketEventMapLike>(
    type: K,
    listener: (event: WebSocketEventMapLike[K]) => void,
  ): void;
  removeEventListener<K extends keyof WebSocketEventMapLike>(
    type: K,
    listener: (event: WebSocketEventMapLike[K]) => void,
  ): void;
}

export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

export interface RealtimeTokenResult {
  token: string;
  wsUrl: string;
  expiresAt: string;
}

export interface ClientContext {
  /** Normalized, no trailing slash. */
  readonly baseUrl: string;
  /** The client's apiKey (string or async function) resolved for one use. */
  readonly credential: () => Promise<string>;
  readonly fetch: typeof globalThis.fetch;
  /** Injected, else global; undefined => the realtime client loads the `ws` package (Node only). */
  readonly WebSocket: WebSocketConstructor | undefined;
  readonly logger: Logger;
  readonly isBrowser: boolean;
  /** POST /api/v1/realtime/tokens with the client's key (applies the browser/temporary-token rules). */
  createRealtimeToken(
    params: { expiresInSeconds?: number },
    options?: { signal?: AbortSignal },
  ): Promise<RealtimeTokenResult>;
}
