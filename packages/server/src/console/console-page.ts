import { appPageHeaders, readBuiltPage, sendBuiltAsset, sendUnbuiltApp } from '../http/app-build.js';
import { route, type Area } from '../http/route.js';

export interface ConsolePageOptions {
  /** The console app's build: `index.html` and `assets/` (packages/console/dist). */
  appDir: string;
}

/**
 * The console's CSP: its own script, style and API only, no inline script or style, framed by no
 * one (a framed console could be clickjacked into revoking keys), forms posting nowhere else.
 */
const CONSOLE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The console page and its assets. The page is the same for everyone (the app asks the API who is
 * signed in), never cached, and sends no Referer: its setup and invitation links carry their token
 * in the fragment, which no request sends, and nothing else of the page should leave it either.
 */
export function consolePageRoutes(open: Area<'none', null>, { appDir }: ConsolePageOptions): void {
  route(open, 'consolePage', async ({ request, reply }) => {
    appPageHeaders(reply).header('cross-origin-opener-policy', 'same-origin');
    const index = await readBuiltPage(appDir);
    if (index === null) {
      return sendUnbuiltApp(request, reply, {
        appDir,
        app: 'console',
        title: 'Chartwright console',
        frameAncestors: "'none'",
      });
    }
    return reply.header('content-security-policy', CONSOLE_POLICY).send(index);
  });

  route(open, 'consoleAsset', ({ params, request, reply }) =>
    sendBuiltAsset(request, reply, { appDir, file: params.file, app: 'console' }),
  );
}
