import {
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type ListWebhookDeliveriesQuery,
  type NoteInclude,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
} from '@chartwright/protocol';

import type { ProjectScope } from '../auth/principal.js';
import { generateId } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { JobStats } from '../jobs/job-stats.js';
import { noteFromRow, noteProgressFromRow } from '../notes/note-records.js';
import type { NoteRow } from '../store/notes.js';
import type { Repositories } from '../store/repositories.js';
import type { WebhookDeliveryAttemptRow, WebhookDeliveryRow } from '../store/webhook-deliveries.js';
import { SERVICE_VERSION } from '../version.js';
import type { WebhookPolicy } from './address-policy.js';
import { guardedPost, type PostOutcome } from './guarded-post.js';
import { webhookSignature } from './signing.js';
import type { WebhookEndpoints } from './webhook-endpoints.js';

export interface DeliveryConfig {
  /** Attempts per delivery before it is `failed`. */
  readonly maxAttempts: number;
  /** The wait after the first failed attempt; each next wait doubles. */
  readonly retryBaseMs: number;
  /** One attempt's limit, connection to answer. */
  readonly timeoutMs: number;
}

export interface WebhookDeliveriesDeps {
  repositories: Pick<Repositories, 'webhookDeliveries' | 'notes'>;
  endpoints: WebhookEndpoints;
  clock: Clock;
  policy: WebhookPolicy;
  config: DeliveryConfig;
  stats: JobStats;
}

/** The longest wait between attempts, however many came before. */
const MAX_RETRY_WAIT_MS = 6 * 3600_000;
/** A sender holds a delivery this long past its timeout before another may take it over. */
const LEASE_MARGIN_MS = 30_000;

const iso = (time: number) => new Date(time).toISOString();

/** Exponential backoff with ±20% jitter, so receivers that failed together are not retried together. */
export function retryWaitMs(baseMs: number, failedAttempts: number): number {
  const wait = Math.min(baseMs * 2 ** (failedAttempts - 1), MAX_RETRY_WAIT_MS);
  return Math.round(wait * (0.8 + Math.random() * 0.4));
}

/** What an attempt left to do: nothing, or another attempt (after `attempts` made) after a wait. */
export type DeliveryResult = { retryInMs: number; attempts: number } | null;

/**
 * Webhook deliveries: planned with the note's outcome (notes/async-notes.ts stores both together,
 * once), each sent by one sender at a time, signed, retried with backoff, and logged attempt by
 * attempt (time, status or failure, duration; never the body, which holds the note).
 */
export class WebhookDeliveries {
  constructor(private readonly deps: WebhookDeliveriesDeps) {}

  /** The deliveries that announce a finished note: to its callback_url and each endpoint receiving the event. */
  async plan(note: NoteRow, type: WebhookEventType): Promise<WebhookDeliveryRow[]> {
    const scope = { projectId: note.project_id, environment: note.environment };
    const now = this.deps.clock.now();
    const eventId = generateId('evt');
    const targets: Pick<WebhookDeliveryRow, 'endpoint_id' | 'target' | 'url'>[] = (
      await this.deps.endpoints.receiving(scope, type)
    ).map((endpoint) => ({
      endpoint_id: endpoint.id,
      target: endpoint.id,
      url: endpoint.url,
    }));
    if (note.callback_url !== null) targets.push({ endpoint_id: null, target: 'callback', url: note.callback_url });
    return targets.map((target) => ({
      id: generateId('whd'),
      note_id: note.id,
      project_id: note.project_id,
      environment: note.environment,
      ...target,
      event_id: eventId,
      event_type: type,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_until: null,
      created_at: now,
    }));
  }

  /** Makes the delivery's next attempt, if it is still to be made and no other sender holds it. */
  async deliver(id: string): Promise<DeliveryResult> {
    const { repositories, clock, config } = this.deps;
    const leaseUntil = clock.now() + config.timeoutMs + LEASE_MARGIN_MS;
    const delivery = await repositories.webhookDeliveries.claim(id, clock.now(), leaseUntil);
    if (delivery === undefined) return null;
    const scope = { projectId: delivery.project_id, environment: delivery.environment };
    const note = await repositories.notes.getScoped(delivery.note_id, scope, clock.now());
    const secret = await this.deps.endpoints.signingSecret(scope, delivery.endpoint_id);
    const attemptedAt = clock.now();
    const outcome: PostOutcome =
      note === undefined || secret === undefined
        ? // Its note passed its retention (the sweep has not deleted it yet): nothing is left to send.
          { status: null, failure: 'not_sent', durationMs: 0 }
        : await this.send(delivery, note, secret);
    const number = delivery.attempts + 1;
    const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const exhausted = number >= config.maxAttempts || note === undefined || secret === undefined;
    const wait = succeeded || exhausted ? null : retryWaitMs(config.retryBaseMs, number);
    const attempt: WebhookDeliveryAttemptRow = {
      delivery_id: id,
      number,
      attempted_at: attemptedAt,
      duration_ms: outcome.durationMs,
      status_code: outcome.status,
      error: outcome.failure,
    };
    const recorded = await repositories.webhookDeliveries.record(id, leaseUntil, {
      attempt,
      status: succeeded ? 'succeeded' : wait === null ? 'failed' : 'pending',
      nextAttemptAt: wait === null ? null : clock.now() + wait,
    });
    if (!recorded) return null;
    this.deps.stats.delivery(succeeded ? 'succeeded' : wait === null ? 'failed' : 'retried');
    return wait === null ? null : { retryInMs: wait, attempts: number };
  }

  async list(scope: ProjectScope, query: ListWebhookDeliveriesQuery): Promise<WebhookDelivery[]> {
    const rows = await this.deps.repositories.webhookDeliveries.list({
      ...scope,
      ...(query.note_id === undefined ? {} : { noteId: query.note_id }),
      ...(query.endpoint_id === undefined ? {} : { endpointId: query.endpoint_id }),
      limit: query.limit ?? 50,
    });
    return rows.map(({ delivery, attempts }) => ({
      id: delivery.id,
      object: 'webhook_delivery',
      event_id: delivery.event_id,
      event_type: delivery.event_type,
      note_id: delivery.note_id,
      endpoint_id: delivery.endpoint_id,
      url: delivery.url,
      status: delivery.status,
      next_attempt_at: delivery.next_attempt_at === null ? null : iso(delivery.next_attempt_at),
      created_at: iso(delivery.created_at),
      attempts: attempts.map((attempt) => ({
        number: attempt.number,
        time: iso(attempt.attempted_at),
        status: attempt.status_code,
        error: attempt.error,
        duration: attempt.duration_ms,
      })),
    }));
  }

  private async send(delivery: WebhookDeliveryRow, note: NoteRow, secret: string): Promise<PostOutcome> {
    const body = JSON.stringify(eventOf(delivery, note));
    const { clock, config, policy } = this.deps;
    return guardedPost(delivery.url, body, {
      policy,
      timeoutMs: config.timeoutMs,
      headers: {
        'user-agent': `Chartwright-Webhooks/${SERVICE_VERSION}`,
        [WEBHOOK_EVENT_ID_HEADER]: delivery.event_id,
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, body, Math.floor(clock.now() / 1000)),
      },
    });
  }
}

/** The event as every attempt sends it: the same id, time and note each time. */
function eventOf(delivery: WebhookDeliveryRow, note: NoteRow): WebhookEvent {
  const common = {
    id: delivery.event_id,
    object: 'event',
    environment: delivery.environment,
    created_at: iso(delivery.created_at),
  } as const;
  const { status } = note;
  if (delivery.event_type === 'note.ready' && status === 'ready') {
    const includes = JSON.parse(note.includes ?? '[]') as NoteInclude[];
    return { ...common, type: 'note.ready', data: { note: noteFromRow(note, includes) } };
  }
  if (status === 'ready') throw new Error(`a note.failed delivery for a ready note (${delivery.id})`);
  return { ...common, type: 'note.failed', data: { note: noteProgressFromRow({ ...note, status }) } };
}
