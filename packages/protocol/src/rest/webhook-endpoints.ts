import { z } from 'zod';

import { withBodyErrors, type EndpointSpec } from './endpoint-spec.js';
import {
  callbackSecretSchema,
  createWebhookEndpointRequestSchema,
  issuedWebhookEndpointSchema,
  listWebhookDeliveriesQuerySchema,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
} from './webhooks.js';

/** Webhooks of a project environment, managed with its sk_ key (docs/notes.md, "Webhooks"). */
export const WEBHOOK_ENDPOINTS = [
  {
    method: 'POST',
    path: '/api/v1/webhooks/endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint for the key’s project environment; its signing secret is in this answer only',
    tag: 'Webhooks',
    auth: 'api_key',
    idempotent: true,
    requestBody: { schema: createWebhookEndpointRequestSchema, required: true },
    success: {
      status: 201,
      description: 'The endpoint and its secret, shown once.',
      schema: issuedWebhookEndpointSchema,
    },
    errors: withBodyErrors('webhook_url_refused'),
  },
  {
    method: 'GET',
    path: '/api/v1/webhooks/endpoints',
    operationId: 'listWebhookEndpoints',
    summary: 'List the project environment’s webhook endpoints (secret hints only)',
    tag: 'Webhooks',
    auth: 'api_key',
    success: { status: 200, description: 'Oldest first.', schema: webhookEndpointListSchema },
    errors: [],
  },
  {
    method: 'DELETE',
    path: '/api/v1/webhooks/endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint, with its deliveries still to be made and their log',
    tag: 'Webhooks',
    auth: 'api_key',
    success: { status: 204, description: 'Deleted; it receives nothing more.', schema: z.null() },
    errors: ['webhook_endpoint_not_found'],
  },
  {
    method: 'POST',
    path: '/api/v1/webhooks/callback-secret',
    operationId: 'createCallbackSecret',
    summary: 'Make a new secret for the events sent to notes’ callback_url; it replaces the last one at once',
    tag: 'Webhooks',
    auth: 'api_key',
    idempotent: true,
    success: { status: 201, description: 'The secret, shown once.', schema: callbackSecretSchema },
    errors: [],
  },
  {
    method: 'GET',
    path: '/api/v1/webhooks/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log: each event sent to a callback_url or endpoint, with every attempt',
    tag: 'Webhooks',
    auth: 'api_key',
    query: { schema: listWebhookDeliveriesQuerySchema },
    success: { status: 200, description: 'Newest first.', schema: webhookDeliveryListSchema },
    errors: ['invalid_query'],
  },
] as const satisfies readonly EndpointSpec[];
