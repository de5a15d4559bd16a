import { describe, expect, it } from 'vitest';

import { buildOpenApiDocument } from './openapi.js';

const document = buildOpenApiDocument({ version: '0.0.0', servers: [] });
const paths = document['paths'] as Record<string, Record<string, Record<string, unknown>>>;
const components = (document['components'] as { schemas: Record<string, unknown> }).schemas;

describe('the OpenAPI document of asynchronous notes and webhooks', () => {
  it('documents the 202 of an asynchronous note, with its Location, and a note in any status', () => {
    const created = paths['/api/v1/notes']?.['post']?.['responses'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(created)).toEqual(expect.arrayContaining(['201', '202']));
    expect(created['202']).toMatchObject({
      headers: { Location: { schema: { type: 'string' } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NoteProgress' } } },
    });
    expect(paths['/api/v1/notes/{id}']?.['get']?.['responses']).toMatchObject({
      '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/NoteOrProgress' } } } },
    });
    expect(JSON.stringify(components['CreateNoteRequest'])).toContain('callback_url');
  });

  it('lists the webhook operations and the event receivers are sent, with its signature header', () => {
    expect(paths['/api/v1/webhooks/endpoints']?.['post']?.['operationId']).toBe('createWebhookEndpoint');
    expect(paths['/api/v1/webhooks/endpoints']?.['get']?.['operationId']).toBe('listWebhookEndpoints');
    expect(paths['/api/v1/webhooks/endpoints/{id}']?.['delete']?.['operationId']).toBe('deleteWebhookEndpoint');
    expect(paths['/api/v1/webhooks/callback-secret']?.['post']?.['operationId']).toBe('createCallbackSecret');
    expect(paths['/api/v1/webhooks/deliveries']?.['get']?.['operationId']).toBe('listWebhookDeliveries');
    const receive = (document['webhooks'] as Record<string, { post: Record<string, unknown> }>)['noteEvent']?.post;
    expect(receive?.['requestBody']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } },
    });
    expect(receive?.['parameters']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'chartwright-signature', in: 'header', required: true }),
      ]),
    );
    expect(components['WebhookEvent']).toBeDefined();
  });
});
