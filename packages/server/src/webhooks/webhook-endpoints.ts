import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_PREFIX,
  type CallbackSecret,
  type CreateWebhookEndpointRequest,
  type IssuedWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@chartwright/protocol';

import type { ProjectScope } from '../auth/principal.js';
import { generateId, generateSecret, secretHint } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../console/secret-box.js';
import { AppError } from '../errors.js';
import type { WebhookEndpointRow } from '../store/webhook-endpoints.js';
import type { Repositories } from '../store/repositories.js';
import { urlRefusal, type WebhookPolicy } from './address-policy.js';

export interface WebhookEndpointsDeps {
  repositories: Pick<Repositories, 'webhookEndpoints'>;
  clock: Clock;
  /** Seals signing secrets under a key outside the database: a copy of it alone cannot forge events. */
  box: SecretBox;
  policy: WebhookPolicy;
}

function endpointOf(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    secret_hint: row.secret_hint,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Who receives a project environment's events, and the secrets their deliveries are signed with. */
export class WebhookEndpoints {
  constructor(private readonly deps: WebhookEndpointsDeps) {}

  /** Refuses a URL the service will not call, naming the body field. */
  checkUrl(url: string, field: string): void {
    const refusal = urlRefusal(url, this.deps.policy);
    if (refusal === null) return;
    throw new AppError('webhook_url_refused', `${field} ${refusal}.`, { details: [{ path: field, message: refusal }] });
  }

  /** Checks a note's callback_url, and that there is a secret to sign what is sent to it. */
  async checkCallback(scope: ProjectScope, url: string): Promise<void> {
    this.checkUrl(url, 'callback_url');
    if ((await this.deps.repositories.webhookEndpoints.getCallbackSecret(scope)) === undefined) {
      throw new AppError(
        'callback_secret_missing',
        'This project environment has no callback secret to sign events with: POST /api/v1/webhooks/callback-secret first.',
      );
    }
  }

  async create(scope: ProjectScope, request: CreateWebhookEndpointRequest): Promise<IssuedWebhookEndpoint> {
    this.checkUrl(request.url, 'url');
    const secret = generateSecret(WEBHOOK_SECRET_PREFIX);
    const row: WebhookEndpointRow = {
      id: generateId('whe'),
      project_id: scope.projectId,
      environment: scope.environment,
      url: request.url,
      description: request.description ?? null,
      events: JSON.stringify(request.events ?? WEBHOOK_EVENT_TYPES),
      secret_sealed: this.deps.box.seal(secret),
      secret_hint: secretHint(secret, WEBHOOK_SECRET_PREFIX),
      created_at: this.deps.clock.now(),
    };
    await this.deps.repositories.webhookEndpoints.insert(row);
    return { ...endpointOf(row), secret };
  }

  async list(scope: ProjectScope): Promise<WebhookEndpoint[]> {
    return (await this.deps.repositories.webhookEndpoints.list(scope)).map(endpointOf);
  }

  /** The endpoints of the scope that receive `type`, with their secrets sealed as stored. */
  async receiving(scope: ProjectScope, type: WebhookEventType): Promise<WebhookEndpointRow[]> {
    const rows = await this.deps.repositories.webhookEndpoints.list(scope);
    return rows.filter((row) => (JSON.parse(row.events) as string[]).includes(type));
  }

  async delete(scope: ProjectScope, id: string): Promise<void> {
    if (!(await this.deps.repositories.webhookEndpoints.delete(id, scope))) {
      throw new AppError(
        'webhook_endpoint_not_found',
        `No webhook endpoint ${id} exists for this key's project environment.`,
      );
    }
  }

  async createCallbackSecret(scope: ProjectScope): Promise<CallbackSecret> {
    const secret = generateSecret(WEBHOOK_SECRET_PREFIX);
    const createdAt = this.deps.clock.now();
    const hint = secretHint(secret, WEBHOOK_SECRET_PREFIX);
    await this.deps.repositories.webhookEndpoints.putCallbackSecret({
      project_id: scope.projectId,
      environment: scope.environment,
      secret_sealed: this.deps.box.seal(secret),
      secret_hint: hint,
      created_at: createdAt,
    });
    return { object: 'callback_secret', secret, secret_hint: hint, created_at: new Date(createdAt).toISOString() };
  }

  /**
   * The secret a delivery is signed with: its endpoint's, or for a callback_url the scope's callback
   * secret as it is now; undefined when it is gone.
   */
  async signingSecret(scope: ProjectScope, endpointId: string | null): Promise<string | undefined> {
    const { webhookEndpoints } = this.deps.repositories;
    const row =
      endpointId === null ? await webhookEndpoints.getCallbackSecret(scope) : await webhookEndpoints.get(endpointId);
    return row === undefined ? undefined : this.deps.box.open(row.secret_sealed);
  }
}
