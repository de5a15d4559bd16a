/**
 * The webhook signature scheme both ends follow, zod-free so the client library can carry it into
 * browsers. As Stripe's: the service signs `<timestamp>.<body>` with HMAC-SHA256 under the
 * endpoint's secret and sends `Chartwright-Signature: t=<unix seconds>,v1=<hex>`; the receiver
 * recomputes it and refuses a timestamp outside its tolerance, so a captured delivery cannot be
 * replayed later.
 */

/** The events a webhook can carry. */
export const WEBHOOK_EVENT_TYPES = ['note.ready', 'note.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Header names, lower-cased as Node and fetch's Headers give them. */
export const WEBHOOK_SIGNATURE_HEADER = 'chartwright-signature';
/** The event's id, also in the body: a receiver that saw it already can answer 2xx and skip it. */
export const WEBHOOK_EVENT_ID_HEADER = 'chartwright-event-id';

/** The signature scheme's name in the header; a later scheme would add another name beside it. */
export const WEBHOOK_SIGNATURE_SCHEME = 'v1';

/** How far a signature's timestamp may be from the receiver's clock by default: 5 minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Prefix of a webhook signing secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** What the HMAC covers: the timestamp, a dot, and the body exactly as sent. */
export function webhookSignedPayload(timestamp: number, body: string): string {
  return `${timestamp}.${body}`;
}

/** `t=<timestamp>,v1=<hex>[,v1=<hex>…]`. */
export function formatWebhookSignatureHeader(timestamp: number, signatures: readonly string[]): string {
  return [`t=${timestamp}`, ...signatures.map((signature) => `${WEBHOOK_SIGNATURE_SCHEME}=${signature}`)].join(',');
}

export interface ParsedWebhookSignature {
  /** Unix seconds. */
  timestamp: number;
  /** Every `v1` signature, lower-case hex. */
  signatures: string[];
}

/** The header's timestamp and `v1` signatures; null when it has no timestamp or no `v1` signature. */
export function parseWebhookSignatureHeader(header: string): ParsedWebhookSignature | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === WEBHOOK_SIGNATURE_SCHEME && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}
