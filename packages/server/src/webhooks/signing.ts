import { createHmac } from 'node:crypto';

import { formatWebhookSignatureHeader, webhookSignedPayload } from '@chartwright/protocol';

/**
 * The Chartwright-Signature header for a body sent at `timestampSeconds`: HMAC-SHA256 of
 * `<timestamp>.<body>` under the receiver's secret (the scheme in the protocol's webhooks.ts, which
 * the client library's verifyWebhook checks).
 */
export function webhookSignature(secret: string, body: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(webhookSignedPayload(timestampSeconds, body)).digest('hex');
  return formatWebhookSignatureHeader(timestampSeconds, [signature]);
}
