import type { WidgetToEmrMessage } from '@chartwright/protocol';

import { acceptsMessage, parentOriginOf } from './parent-origin.js';

/** What the channel needs of the page: its own window (to listen) and the window embedding it. */
export interface HostWindows {
  self: Pick<Window, 'addEventListener' | 'removeEventListener' | 'location' | 'document'>;
  parent: Pick<Window, 'postMessage'>;
}

/**
 * The postMessage link to the EMR page. It posts only to the partner's allowed origins — the
 * embedding page's exact origin once known — and hands on only messages from the embedding window
 * and an allowed origin. When the browser does not tell the parent's origin (no ancestorOrigins, no
 * referrer), a message is posted with each allowed origin as targetOrigin, so the browser delivers
 * it only if that is the parent's, and the origin of the first message accepted is pinned.
 */
export class HostChannel {
  private allowed: readonly string[];
  private pinned: string | null;

  constructor(
    private readonly windows: HostWindows,
    allowed: readonly string[],
  ) {
    this.allowed = allowed;
    // Firefox has no ancestorOrigins, whatever the DOM typings say.
    const ancestors = (windows.self.location as { ancestorOrigins?: DOMStringList }).ancestorOrigins;
    this.pinned = parentOriginOf(allowed, {
      ancestorOrigins: ancestors === undefined ? undefined : Array.from(ancestors),
      referrer: windows.self.document.referrer,
    });
  }

  /** The embedding page's origin, once known. */
  get hostOrigin(): string | null {
    return this.pinned;
  }

  post(message: WidgetToEmrMessage): void {
    for (const origin of this.pinned === null ? this.allowed : [this.pinned]) {
      this.windows.parent.postMessage(message, origin);
    }
  }

  /** Calls `handler` with the data of each accepted message; returns the function that stops listening. */
  listen(handler: (data: unknown) => void): () => void {
    const listener = (event: MessageEvent) => {
      const fromParent = event.source !== null && event.source === (this.windows.parent as unknown);
      if (!acceptsMessage({ origin: event.origin, fromParent }, this.allowed, this.pinned)) return;
      this.pinned ??= event.origin;
      handler(event.data);
    };
    this.windows.self.addEventListener('message', listener);
    return () => this.windows.self.removeEventListener('message', listener);
  }
}
