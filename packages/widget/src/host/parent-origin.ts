/** The origin of an absolute URL, or null for anything else (an empty referrer, `about:blank`). */
function originOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const { origin } = new URL(url);
  return origin === 'null' ? null : origin;
}

export interface FrameFacts {
  /** `location.ancestorOrigins` (Chromium, WebKit): the embedding page's origin first. */
  ancestorOrigins: readonly string[] | undefined;
  /** `document.referrer`: the embedding page's URL or origin, unless its referrer policy hid it. */
  referrer: string;
}

/**
 * The embedding page's exact origin when the browser tells it and the partner allows it; null
 * when it is not known (the widget then pins the origin of the first valid message instead) or
 * not allowed (the widget never talks to it).
 */
export function parentOriginOf(allowed: readonly string[], frame: FrameFacts): string | null {
  const candidate = frame.ancestorOrigins?.[0] ?? originOf(frame.referrer);
  return candidate !== null && allowed.includes(candidate) ? candidate : null;
}

/** What the widget knows of a message event, to decide whether it may even be read. */
export interface IncomingMessage {
  origin: string;
  /** True when `event.source` is the window that embeds the widget. */
  fromParent: boolean;
}

/**
 * A message is read only when it comes from the embedding window, from an allowed origin, and —
 * once the host's origin is pinned — from that very origin. Everything else is dropped unread.
 */
export function acceptsMessage(message: IncomingMessage, allowed: readonly string[], pinned: string | null): boolean {
  if (!message.fromParent || !allowed.includes(message.origin)) return false;
  return pinned === null || message.origin === pinned;
}
