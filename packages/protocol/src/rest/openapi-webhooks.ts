import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TOLERANCE_SECONDS } from '../webhooks.js';

/** What the service POSTs to receivers: OpenAPI 3.1's `webhooks`, next to the paths it serves. */
export const OPENAPI_WEBHOOKS = {
  noteEvent: {
    post: {
      operationId: 'receiveNoteEvent',
      summary:
        'An asynchronous note is ready or failed: sent to its callback_url and the project environment’s endpoints',
      tags: ['Webhooks'],
      security: [],
      parameters: [
        {
          name: WEBHOOK_SIGNATURE_HEADER,
          in: 'header',
          required: true,
          description: `\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>\`. Refuse a bad signature, and a timestamp more than ${WEBHOOK_TOLERANCE_SECONDS} s from your clock.`,
          schema: { type: 'string' },
        },
        {
          name: WEBHOOK_EVENT_ID_HEADER,
          in: 'header',
          required: true,
          description: 'The event’s id, as in the body: the same on every retry, so a receiver can skip one it has.',
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } },
      },
      responses: {
        '200': {
          description: 'Any 2xx acknowledges it; anything else, or no answer in time, is retried with backoff.',
        },
        '400': { description: 'The receiver refuses it (a bad signature or a stale timestamp); it is retried.' },
      },
    },
  },
} as const;
