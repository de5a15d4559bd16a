import { messagePage, readBuiltPage, sendBuiltAsset } from '../http/app-build.js';
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
    reply
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-opener-policy', 'same-origin')
      .type('text/html; charset=utf-8');
    const index = await readBuiltPage(appDir);
    if (index === null) {
      request.log.error({ appDir }, 'the console app is not built: no index.html');
      return reply
        .code(503)
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
        .send(
          messagePage(
            'Chartwright console is not available',
            'The console app has not been built on this server. An operator builds it with <code>npm run build -w @chartwright/console</code> (<code>npm start</code> does it).',
          ),
        );
    }
    return reply.header('content-security-policy', CONSOLE_POLICY).send(index);
  });

  route(open, 'consoleAsset', ({ params, request, reply }) =>
    sendBuiltAsset(request, reply, { appDir, file: params.file, app: 'console' }),
  );
}
