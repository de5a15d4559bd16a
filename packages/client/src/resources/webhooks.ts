import type {
  CallbackSecret as WireCallbackSecret,
  IssuedWebhookEndpoint as WireIssuedWebhookEndpoint,
  WebhookDelivery as WireWebhookDelivery,
  WebhookEndpoint as WireWebhookEndpoint,
  WebhookEventType,
} from '@chartwright/protocol';

import type { HttpClient, RequestOptions } from '../core/http.js';
import { fromWireKeys, type CamelCaseKeys } from '../core/wire-case.js';
import { ChartwrightError } from '../errors.js';

/** A webhook endpoint of the key's project environment: `id`, `url`, `description`, `events`, `secretHint`, `createdAt`. */
export type WebhookEndpoint = CamelCaseKeys<WireWebhookEndpoint>;
/** A new endpoint with its signing `secret` (`whsec_…`), shown this once. */
export type IssuedWebhookEndpoint = CamelCaseKeys<WireIssuedWebhookEndpoint>;
/** The secret that signs events sent to notes' `callbackUrl`, shown this once. */
export type CallbackSecret = CamelCaseKeys<WireCallbackSecret>;
/** One event for one receiver and its attempts (`number`, `time`, `status`, `error`, `duration` in ms). */
export type WebhookDelivery = CamelCaseKeys<WireWebhookDelivery>;

export interface WebhookEndpointCreateParams {
  /** https only (http only to hosts the operator allows), never a private or loopback address. */
  url: string;
  description?: string;
  /** Default: every event. */
  events?: readonly WebhookEventType[];
}

export interface WebhookDeliveryListParams {
  noteId?: string;
  endpointId?: string;
  /** 1–100, default 50. */
  limit?: number;
}

function checkedId(id: unknown, call: string): string {
  if (typeof id !== 'string' || id === '') {
    throw new ChartwrightError(`${call}: id must be a non-empty string.`, 'invalid_argument');
  }
  return encodeURIComponent(id);
}

export class WebhookEndpoints {
  constructor(private readonly http: HttpClient) {}

  /** Registers an endpoint (`POST /api/v1/webhooks/endpoints`); keep its `secret` to verify deliveries. */
  async create(params: WebhookEndpointCreateParams, options?: RequestOptions): Promise<IssuedWebhookEndpoint> {
    const endpoint = await this.http.request<WireIssuedWebhookEndpoint>({
      method: 'POST',
      path: '/api/v1/webhooks/endpoints',
      body: params,
      options,
      create: true,
    });
    return fromWireKeys(endpoint);
  }

  /** Every endpoint, oldest first (secret hints only). */
  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    const endpoints = await this.http.request<WireWebhookEndpoint[]>({
      method: 'GET',
      path: '/api/v1/webhooks/endpoints',
      options,
    });
    return endpoints.map((endpoint) => fromWireKeys(endpoint));
  }

  /** Deletes the endpoint with the deliveries it still had to receive and their log. */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.http.request<undefined>({
      method: 'DELETE',
      path: `/api/v1/webhooks/endpoints/${checkedId(id, 'webhooks.endpoints.delete')}`,
      options,
    });
  }
}

/**
 * Webhooks of the key's project environment: endpoints that receive every note event, the callback
 * secret that signs events sent to a note's own `callbackUrl`, and the delivery log. Verify each
 * delivery with `verifyWebhook`.
 */
export class Webhooks {
  readonly endpoints: WebhookEndpoints;

  constructor(private readonly http: HttpClient) {
    this.endpoints = new WebhookEndpoints(http);
  }

  /** A new callback secret (`POST /api/v1/webhooks/callback-secret`); it replaces the last one at once. */
  async createCallbackSecret(options?: RequestOptions): Promise<CallbackSecret> {
    const secret = await this.http.request<WireCallbackSecret>({
      method: 'POST',
      path: '/api/v1/webhooks/callback-secret',
      options,
      create: true,
    });
    return fromWireKeys(secret);
  }

  /** The delivery log, newest first: each event sent, with every attempt. */
  async listDeliveries(params: WebhookDeliveryListParams = {}, options?: RequestOptions): Promise<WebhookDelivery[]> {
    const query = new URLSearchParams();
    if (params.noteId !== undefined) query.set('note_id', params.noteId);
    if (params.endpointId !== undefined) query.set('endpoint_id', params.endpointId);
    if (params.limit !== undefined) query.set('limit', String(params.limit));
    const text = query.toString();
    const deliveries = await this.http.request<WireWebhookDelivery[]>({
      method: 'GET',
      path: `/api/v1/webhooks/deliveries${text === '' ? '' : `?${text}`}`,
      options,
    });
    return deliveries.map((delivery) => fromWireKeys(delivery));
  }
}
