import type { ApiKeyPrincipal } from '../auth/principal.js';
import { route, type Area } from '../http/route.js';
import type { WebhookDeliveries } from './deliveries.js';
import type { WebhookEndpoints } from './webhook-endpoints.js';

/** A project environment's webhook endpoints, its callback secret and the delivery log, with its sk_ key. */
export function webhookRoutes(
  api: Area<'api_key', ApiKeyPrincipal>,
  services: { endpoints: WebhookEndpoints; deliveries: WebhookDeliveries },
): void {
  const { endpoints, deliveries } = services;
  route(api, 'createWebhookEndpoint', ({ body, principal }) => endpoints.create(principal, body));
  route(api, 'listWebhookEndpoints', ({ principal }) => endpoints.list(principal));
  route(api, 'deleteWebhookEndpoint', async ({ params, principal }) => {
    await endpoints.delete(principal, params.id);
    return null;
  });
  route(api, 'createCallbackSecret', ({ principal }) => endpoints.createCallbackSecret(principal));
  route(api, 'listWebhookDeliveries', ({ query, principal }) => deliveries.list(principal, query));
}
