import {
  parseWebhookSignatureHeader,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookEvent as WireWebhookEvent,
} from '@chartwright/protocol';

import { fromWireKeys, type CamelCaseKeys } from '../core/wire-case.js';
import { ChartwrightError } from '../errors.js';
import { subtleCrypto } from './web-crypto.js';

type WireEvent<Type extends WireWebhookEvent['type']> = Extract<WireWebhookEvent, { type: Type }>;

/** An event as `verifyWebhook` returns it: camelCase names, its note as `notes.retrieve` returns one. */
type EventOf<Type extends WireWebhookEvent['type']> = CamelCaseKeys<Omit<WireEvent<Type>, 'data'>> & {
  data: { note: CamelCaseKeys<WireEvent<Type>['data']['note']> };
};

/** `note.ready` carries the written note; `note.failed` the note's status and error. */
export type WebhookEvent = EventOf<'note.ready'> | EventOf<'note.failed'>;

export interface VerifyWebhookOptions {
  /** Seconds the signature's timestamp may be from now; default 300 (5 minutes). */
  tolerance?: number;
  /** The time to judge the timestamp against; default the current time. */
  now?: Date | number;
}

/** Codes: `webhook_signature_missing`, `webhook_signature_invalid`, `webhook_timestamp_outside_tolerance`, `webhook_payload_invalid`. */
export class WebhookVerificationError extends ChartwrightError {}

/** Node's IncomingHttpHeaders, a plain object, or fetch's Headers. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Any fetch Headers, a polyfill's too: told apart by its `get`. */
function isHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as Partial<Headers>).get === 'function';
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (isHeaders(headers)) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(',');
  }
  return undefined;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length: hex.length / 2 }, (_, index) => parseInt(hex.slice(index * 2, index * 2 + 2), 16));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/**
 * Checks that a webhook delivery comes from the service and is fresh, and returns its event: the
 * `Chartwright-Signature` header must hold an HMAC-SHA256 of `<timestamp>.<body>` under `secret`
 * (the endpoint's, or the callback secret), compared in constant time (Web Crypto's verify), and
 * its timestamp must be within `tolerance` of now, so a captured delivery cannot be replayed later.
 * Pass the body exactly as received (the raw text or bytes, not a re-serialised object). Throws a
 * `WebhookVerificationError`. Runs on Node 18+ and in browsers (Web Crypto).
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const header = headerOf(headers, WEBHOOK_SIGNATURE_HEADER);
  if (header === undefined) {
    throw new WebhookVerificationError('The request has no Chartwright-Signature header.', 'webhook_signature_missing');
  }
  const parsed = parseWebhookSignatureHeader(header);
  if (parsed === null) {
    throw new WebhookVerificationError('The Chartwright-Signature header is malformed.', 'webhook_signature_invalid');
  }
  const tolerance = options.tolerance ?? WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(Number(options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > tolerance) {
    throw new WebhookVerificationError(
      `The signature's timestamp is more than ${tolerance} s from now: a replayed or delayed delivery.`,
      'webhook_timestamp_outside_tolerance',
    );
  }
  const encoder = new TextEncoder();
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const signed = concat(encoder.encode(`${parsed.timestamp}.`), body);
  const subtle = await subtleCrypto();
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  let verified = false;
  for (const signature of parsed.signatures) {
    if (await subtle.verify('HMAC', key, hexBytes(signature), signed)) verified = true;
  }
  if (!verified) {
    throw new WebhookVerificationError(
      'The signature does not match the body and secret (an altered body, or another secret).',
      'webhook_signature_invalid',
    );
  }
  return eventOf(new TextDecoder().decode(body));
}

function eventOf(text: string): WebhookEvent {
  let wire: WireWebhookEvent;
  try {
    wire = JSON.parse(text) as WireWebhookEvent;
  } catch (error) {
    throw new WebhookVerificationError('The signed body is not JSON.', 'webhook_payload_invalid', { cause: error });
  }
  const { data, ...event } = wire;
  return { ...fromWireKeys(event), data: { note: fromWireKeys(data.note) } } as WebhookEvent;
}
