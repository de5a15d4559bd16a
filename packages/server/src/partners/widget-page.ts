import type { Clock } from '../clock.js';
import { appPageHeaders, messagePage, readBuiltPage, sendBuiltAsset, sendUnbuiltApp } from '../http/app-build.js';
import { route, type Area } from '../http/route.js';
import type { WidgetSessionService } from './widget-sessions.js';

export interface WidgetPageOptions {
  widgetSessions: WidgetSessionService;
  clock: Clock;
  /** The widget app's build: `index.html` and `assets/` (packages/widget/dist). */
  appDir: string;
}

/**
 * The app's CSP: its own scripts, styles and API (the realtime WebSocket included: 'self' covers
 * ws/wss to the same host), plus `blob:` scripts for the microphone's AudioWorklet module.
 */
const appPolicy = (origins: readonly string[]) =>
  [
    "default-src 'self'",
    "script-src 'self' blob:",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${origins.join(' ')}`,
  ].join('; ');

/**
 * What the page tells the app before any request: the service's clock (token expiries are the
 * service's times) and the origins allowed to frame it (so a widget whose token has expired can
 * still tell its EMR). JSON in a data block, with `<` escaped so it cannot close the element.
 */
function bootScript(serverNow: number, frameOrigins: readonly string[]): string {
  const json = JSON.stringify({ serverNow, frameOrigins }).replaceAll('<', '\\u003c');
  return `<script id="chartwright-boot" type="application/json">${json}</script>`;
}

/**
 * The widget page and its assets. Only the partner's allowed origins may frame the page (CSP
 * frame-ancestors, derived from the token's partner). An expired token still yields its partner's
 * origins, so the app can load inside the EMR and report TOKEN_EXPIRED; a forged or malformed token
 * gets a page no one may frame. The token travels in the URL, so the page never sends a Referer and
 * is never cached. Assets have content-hashed names and are cached for a year.
 */
export function widgetPageRoutes(open: Area<'none', null>, options: WidgetPageOptions): void {
  const { widgetSessions, clock, appDir } = options;

  route(open, 'widgetPage', async ({ query, request, reply }) => {
    appPageHeaders(reply);
    const token = typeof query['token'] === 'string' ? query['token'] : '';
    const origins = token === '' ? null : await widgetSessions.framingOrigins(token);
    if (origins === null || origins.length === 0) {
      return reply
        .code(401)
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
        .send(messagePage('Chartwright', 'This widget link is not valid. Reopen the scribe from your EMR.'));
    }
    const index = await readBuiltPage(appDir);
    if (index === null) {
      const frameAncestors = origins.join(' ');
      return sendUnbuiltApp(request, reply, { appDir, app: 'widget', title: 'Chartwright scribe', frameAncestors });
    }
    return reply
      .header('content-security-policy', appPolicy(origins))
      .send(index.replace('</head>', `${bootScript(clock.now(), origins)}</head>`));
  });

  route(open, 'widgetAsset', ({ params, request, reply }) =>
    sendBuiltAsset(request, reply, { appDir, file: params.file, app: 'widget' }),
  );
}
