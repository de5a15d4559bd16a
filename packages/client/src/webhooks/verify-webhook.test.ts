import { webhookSignature } from '@chartwright/server/internal/webhooks/signing.js';
import { describe, expect, it } from 'vitest';

import { verifyWebhook, WebhookVerificationError } from './verify-webhook.js';

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const NOW_MS = Date.UTC(2026, 4, 1, 12, 0, 0);
const NOW = NOW_MS / 1000;

const BODY = JSON.stringify({
  id: 'evt_1',
  object: 'event',
  type: 'note.failed',
  environment: 'test',
  created_at: '2026-05-01T12:00:00.000Z',
  data: {
    note: {
      id: 'note_1',
      object: 'note',
      status: 'failed',
      template_id: 'soap',
      style: 'detailed',
      callback_url: 'https://hooks.example.com/x',
      created_at: '2026-05-01T11:59:00.000Z',
      expires_at: '2026-05-31T11:59:00.000Z',
      error: { code: 'note_generation_failed', message: 'The note could not be written in 3 attempts.' },
    },
  },
});

const signed = (body = BODY, timestamp = NOW, secret = SECRET) => ({
  'chartwright-signature': webhookSignature(secret, body, timestamp),
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).code;
}

describe('verifyWebhook', () => {
  it('returns the event of a delivery signed with the secret, its names in camelCase like notes.retrieve', async () => {
    const event = await verifyWebhook(BODY, signed(), SECRET, { now: NOW_MS });
    expect(event).toMatchObject({
      id: 'evt_1',
      type: 'note.failed',
      createdAt: '2026-05-01T12:00:00.000Z',
      data: {
        note: { id: 'note_1', status: 'failed', templateId: 'soap', callbackUrl: 'https://hooks.example.com/x' },
      },
    });
  });

  it('takes the body as bytes, and the headers as fetch Headers or Node’s header object', async () => {
    const bytes = new TextEncoder().encode(BODY);
    await expect(verifyWebhook(bytes, new Headers(signed()), SECRET, { now: new Date(NOW_MS) })).resolves.toMatchObject(
      {
        id: 'evt_1',
      },
    );
    await expect(
      verifyWebhook(BODY, { 'Chartwright-Signature': signed()['chartwright-signature'] }, SECRET, { now: NOW_MS }),
    ).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('refuses a body changed after signing, even by a character', async () => {
    const tampered = BODY.replace('note_generation_failed', 'note_generation_failex');
    expect(await refusal(verifyWebhook(tampered, signed(), SECRET, { now: NOW_MS }))).toBe('webhook_signature_invalid');
  });

  it('refuses a signature made with another secret', async () => {
    const other = signed(BODY, NOW, `${SECRET}x`);
    expect(await refusal(verifyWebhook(BODY, other, SECRET, { now: NOW_MS }))).toBe('webhook_signature_invalid');
  });

  it('refuses a timestamp outside the tolerance (a replay), 5 minutes by default', async () => {
    const stale = signed(BODY, NOW - 301);
    expect(await refusal(verifyWebhook(BODY, stale, SECRET, { now: NOW_MS }))).toBe(
      'webhook_timestamp_outside_tolerance',
    );
    const early = signed(BODY, NOW + 301);
    expect(await refusal(verifyWebhook(BODY, early, SECRET, { now: NOW_MS }))).toBe(
      'webhook_timestamp_outside_tolerance',
    );
    await expect(verifyWebhook(BODY, signed(BODY, NOW - 299), SECRET, { now: NOW_MS })).resolves.toBeDefined();
    await expect(
      verifyWebhook(BODY, signed(BODY, NOW - 299), SECRET, { now: NOW_MS, tolerance: 60 }),
    ).rejects.toMatchObject({ code: 'webhook_timestamp_outside_tolerance' });
  });

  it('refuses a timestamp the signature does not cover', async () => {
    const header = signed()['chartwright-signature'].replace(`t=${NOW}`, `t=${NOW + 1}`);
    const code = await refusal(verifyWebhook(BODY, { 'chartwright-signature': header }, SECRET, { now: NOW_MS }));
    expect(code).toBe('webhook_signature_invalid');
  });

  it('refuses a delivery without a signature, or with a malformed one', async () => {
    expect(await refusal(verifyWebhook(BODY, {}, SECRET, { now: NOW_MS }))).toBe('webhook_signature_missing');
    const malformed = { 'chartwright-signature': `t=${NOW},v1=not-hex` };
    expect(await refusal(verifyWebhook(BODY, malformed, SECRET, { now: NOW_MS }))).toBe('webhook_signature_invalid');
  });

  it('accepts any of several v1 signatures (a secret being replaced)', async () => {
    const good = signed()['chartwright-signature'].split(',')[1] ?? '';
    const header = `t=${NOW},v1=${'0'.repeat(64)},${good}`;
    await expect(
      verifyWebhook(BODY, { 'chartwright-signature': header }, SECRET, { now: NOW_MS }),
    ).resolves.toMatchObject({
      id: 'evt_1',
    });
  });
});
