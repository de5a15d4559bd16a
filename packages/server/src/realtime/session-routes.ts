import type { ApiKeyPrincipal } from '../auth/principal.js';
import { route, type Area } from '../http/route.js';
import type { RealtimeSessionArchive } from './session-archive.js';

/** Reading back, and deleting, what a realtime session stored. */
export function realtimeSessionRoutes(api: Area<'api_key', ApiKeyPrincipal>, archive: RealtimeSessionArchive): void {
  route(api, 'retrieveRealtimeSession', ({ params, principal }) => archive.retrieve(principal, params.id));

  route(api, 'deleteRealtimeSession', async ({ params, principal }) => {
    await archive.delete(principal, params.id);
    return null;
  });
}
