import { z } from 'zod';

import { ENVIRONMENTS } from '../credentials.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks.js';
import { MAX_CALLBACK_URL_LENGTH, noteProgressSchema, noteSchema } from './notes.js';
import { componentRegistry } from './registry.js';

const isoTime = (what: string) => z.string().describe(`${what} (ISO 8601).`);

export const createWebhookEndpointRequestSchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an https:// URL (http:// only to hosts the operator allows)' })
      .max(MAX_CALLBACK_URL_LENGTH)
      .describe('Where events are POSTed: https only, and never a private, loopback or link-local address.'),
    description: z.string().trim().max(200).optional(),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .optional()
      .describe('The events it receives; default every one.'),
  })
  .register(componentRegistry, { id: 'CreateWebhookEndpointRequest' });
export type CreateWebhookEndpointRequest = z.input<typeof createWebhookEndpointRequestSchema>;

export const webhookEndpointSchema = z
  .object({
    id: z.string().describe('`whe_…`.'),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    secret_hint: z.string().describe('The signing secret’s prefix and last four characters.'),
    created_at: isoTime('Created'),
  })
  .register(componentRegistry, { id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z
  .array(webhookEndpointSchema)
  .register(componentRegistry, { id: 'WebhookEndpointList' });

export const issuedWebhookEndpointSchema = webhookEndpointSchema
  .extend({
    secret: z
      .string()
      .describe(
        'The signing secret (`whsec_…`), shown this once: verify each delivery’s Chartwright-Signature with it.',
      ),
  })
  .register(componentRegistry, { id: 'IssuedWebhookEndpoint' });
export type IssuedWebhookEndpoint = z.infer<typeof issuedWebhookEndpointSchema>;

export const callbackSecretSchema = z
  .object({
    object: z.literal('callback_secret'),
    secret: z
      .string()
      .describe('Signs the events sent to notes’ callback_url (`whsec_…`), shown this once; it replaces the last one.'),
    secret_hint: z.string(),
    created_at: isoTime('Created'),
  })
  .register(componentRegistry, { id: 'CallbackSecret' });
export type CallbackSecret = z.infer<typeof callbackSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;

export const webhookDeliveryAttemptSchema = z.object({
  number: z.int().describe('1 for the first attempt.'),
  time: isoTime('When it was sent'),
  status: z.int().nullable().describe('The HTTP status the receiver answered; null when it did not answer.'),
  error: z
    .string()
    .nullable()
    .describe(
      'Why it got no answer: `timeout`, `connection_failed`, `address_refused` (the address is one the service may not call), `tls_failed`, `not_sent` (its note passed its retention first); null when the receiver answered (`status`; a redirect is not followed).',
    ),
  duration: z.int().describe('Milliseconds from sending to the answer or the failure.'),
});

export const webhookDeliverySchema = z
  .object({
    id: z.string().describe('`whd_…`.'),
    object: z.literal('webhook_delivery'),
    event_id: z.string().describe('The event’s id (`evt_…`), the same in every attempt and to every receiver.'),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    note_id: z.string(),
    endpoint_id: z.string().nullable().describe('The webhook endpoint; null for the note’s callback_url.'),
    url: z.string(),
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES)
      .describe(
        '`pending` (waiting for its next attempt), `sending`, `succeeded` (a 2xx) or `failed` (attempts spent).',
      ),
    next_attempt_at: isoTime('When it is tried next').nullable(),
    created_at: isoTime('Created'),
    attempts: z.array(webhookDeliveryAttemptSchema).describe('Every attempt, first first.'),
  })
  .register(componentRegistry, { id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z
  .array(webhookDeliverySchema)
  .register(componentRegistry, { id: 'WebhookDeliveryList' });

/** GET /api/v1/webhooks/deliveries: newest first, of a note or an endpoint or both. */
export const listWebhookDeliveriesQuerySchema = z.strictObject({
  note_id: z.string().min(1).optional().describe('Only this note’s deliveries.'),
  endpoint_id: z.string().min(1).optional().describe('Only this endpoint’s deliveries.'),
  limit: z
    .string()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(z.int().min(1).max(100))
    .optional()
    .describe('At most this many, 1–100; default 50.'),
});
export type ListWebhookDeliveriesQuery = z.output<typeof listWebhookDeliveriesQuerySchema>;

const eventShape = {
  id: z.string().describe('`evt_…`: the same in every attempt of this event, to every receiver.'),
  object: z.literal('event'),
  environment: z.enum(ENVIRONMENTS),
  created_at: isoTime('When the event happened'),
};

/** The body of every webhook delivery. */
export const webhookEventSchema = z
  .discriminatedUnion('type', [
    z.object({ ...eventShape, type: z.literal('note.ready'), data: z.object({ note: noteSchema }) }),
    z.object({ ...eventShape, type: z.literal('note.failed'), data: z.object({ note: noteProgressSchema }) }),
  ])
  .register(componentRegistry, { id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
