import { route, type Area } from '../http/route.js';
import type { ApiKeyPrincipal } from './principal.js';
import type { RealtimeTokenService } from './realtime-tokens.js';

export function realtimeTokenRoutes(api: Area<'api_key', ApiKeyPrincipal>, tokens: RealtimeTokenService): void {
  route(api, 'createRealtimeToken', ({ body, principal }) =>
    tokens.mint({
      projectId: principal.projectId,
      environment: principal.environment,
      issuer: { kind: 'api_key', id: principal.apiKeyId },
      // A key in its rotation grace period takes its tokens down with it: say so in their expiresAt.
      ...(principal.expiresAt === null ? {} : { notAfter: principal.expiresAt }),
      ...(body.expiresInSeconds === undefined ? {} : { expiresInSeconds: body.expiresInSeconds }),
    }),
  );
}
