import type { WebSocketConstructor } from '@chartwright/client';
import type { WidgetErrorCode, WidgetToEmrMessage } from '@chartwright/protocol';

import type { WidgetApi } from '../api/widget-api.js';
import type { WidgetBoot } from '../boot.js';
import type { AudioInput } from './recording.js';
import type { Store } from './store.js';
import type { WidgetEvent } from './transition.js';
import type { WidgetState } from './widget-state.js';

/** The postMessage link to the EMR page (HostChannel in the browser). */
export interface HostLink {
  post(message: WidgetToEmrMessage): void;
  /** Calls `handler` with each message the EMR page may send; returns the function that stops it. */
  listen(handler: (data: unknown) => void): () => void;
}

/** Everything the controller needs from its surroundings: the browser in the widget, Node in tests. */
export interface WidgetEnvironment {
  /** The widget host's origin; the API and the realtime socket live there. */
  baseUrl: string;
  boot: WidgetBoot;
  /** Opens the link to the EMR page for these allowed origins. */
  host(allowedOrigins: readonly string[]): HostLink;
  audio: AudioInput;
  /** Whether the page may use the microphone at all (permissions policy). */
  microphonePolicy(): 'allowed' | 'blocked' | 'unknown';
  /** Wall clock, ms (corrected by `boot.clockOffsetMs` for token times). */
  now(): number;
  /** Monotonic clock for elapsed recording time. */
  monotonicNow(): number;
  fetch?: typeof globalThis.fetch;
  /** Default: the global WebSocket (Node 20 has none: tests pass the `ws` package's). */
  WebSocket?: WebSocketConstructor;
}

export type WidgetStore = Store<WidgetState, WidgetEvent>;

/** What the widget controller shares with the parts it is made of. */
export interface ControllerContext {
  readonly env: WidgetEnvironment;
  readonly store: WidgetStore;
  readonly api: WidgetApi;
  /** Posts to the EMR page; nothing goes out before the link to it is open. */
  readonly post: (message: WidgetToEmrMessage) => void;
  readonly postError: (code: WidgetErrorCode, entries: readonly string[]) => void;
}
