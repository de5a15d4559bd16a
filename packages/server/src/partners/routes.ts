import { route, type Area } from '../http/route.js';
import type { PartnerRow } from '../store/partners.js';
import type { WidgetTokenSigner } from './signer.js';
import type { WidgetSession, WidgetSessionService } from './widget-sessions.js';
import type { WidgetTokenService } from './widget-tokens.js';

/** POST /api/widget/token, for partner backends. */
export function widgetTokenRoutes(partner: Area<'partner_key', PartnerRow>, tokens: WidgetTokenService): void {
  route(partner, 'createWidgetToken', async ({ body, principal }) => ({
    success: true,
    data: await tokens.mint(principal, body),
  }));
}

export function widgetSessionRoutes(
  widget: Area<'widget_token', WidgetSession>,
  widgetSessions: WidgetSessionService,
): void {
  route(widget, 'getWidgetSession', ({ principal }) => widgetSessions.info(principal));
  route(widget, 'updateWidgetProfile', ({ body, principal }) =>
    widgetSessions.setDisplayName(principal, body.displayName),
  );
}

/** The public keys of widget tokens, so partners (and our own instances) can verify them. */
export function jwksRoutes(open: Area<'none', null>, signer: WidgetTokenSigner): void {
  route(open, 'widgetJwks', ({ reply }) => {
    reply.header('cache-control', 'public, max-age=300');
    return signer.jwks();
  });
}
