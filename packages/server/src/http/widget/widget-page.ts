import { endpoint } from '@chartwright/protocol';
import type { FastifyInstance } from 'fastify';

import { AppError } from '../../errors.js';
import { partnerOrigins } from '../../widget/partners.js';
import type { PartnersRepository } from '../../store/partners.js';
import type { WidgetTokenSigner } from '../../widget/signer.js';
import { fastifyPath } from '../paths.js';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${body}</p></main></body>
</html>
`;

/**
 * The widget page. Only the partner's allowed origins may frame it (CSP frame-ancestors, derived
 * from the token's partner). An expired token still yields its partner's origins, so the page can
 * load inside the EMR and report TOKEN_EXPIRED; a forged or malformed token gets a page no one may
 * frame. The token travels in the URL, so the page never sends a Referer.
 *
 * The page body is a placeholder until the widget app is built; the headers are final.
 */
export function widgetPageRoute(app: FastifyInstance, signer: WidgetTokenSigner, partners: PartnersRepository): void {
  app.get<{ Querystring: { token?: string } }>(fastifyPath(endpoint('widgetPage')), async (request, reply) => {
    reply
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff');
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    let origins: string[] | null = null;
    if (token !== '') {
      try {
        const partner = await partners.get((await signer.verify(token)).partner);
        if (partner?.revoked_at === null) origins = partnerOrigins(partner);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    if (origins === null || origins.length === 0) {
      return reply
        .code(401)
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
        .type('text/html; charset=utf-8')
        .send(page('Chartwright', 'This widget link is not valid. Reopen the scribe from your EMR.'));
    }
    return reply
      .header('content-security-policy', `default-src 'self'; frame-ancestors ${origins.join(' ')}`)
      .type('text/html; charset=utf-8')
      .send(page('Chartwright scribe', 'Loading…'));
  });
}
