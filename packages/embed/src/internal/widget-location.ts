import { WidgetEmbedError } from '../errors.js';

/** Where the widget lives: its exact origin (the only one messages are accepted from and posted to) and its page. */
export interface WidgetLocation {
  readonly origin: string;
  /** The page address with `token` in its query, as the widget reads it. */
  frameUrl(token: string): string;
}

export function widgetLocation(widgetUrl: string): WidgetLocation {
  const url = URL.canParse(widgetUrl) ? new URL(widgetUrl) : null;
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw WidgetEmbedError.embed(
      'INVALID_OPTIONS',
      `widgetUrl: must be an absolute http(s) URL such as https://scribe.example.org/widget, not ${JSON.stringify(widgetUrl)}`,
    );
  }
  return {
    origin: url.origin,
    frameUrl(token) {
      const frame = new URL(url);
      frame.searchParams.set('token', token);
      return frame.href;
    },
  };
}
