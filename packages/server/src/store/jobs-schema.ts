import type { Environment, NoteStatus, WebhookEventType } from '@chartwright/protocol';

/**
 * Asynchronous notes and webhooks (0017). Times are epoch milliseconds, as everywhere. Webhook
 * secrets are sealed (SecretBox) under a key outside the database; no row here holds note text
 * except `notes.request`, the input of a note not yet written, cleared once it is.
 */

/** What a notes row holds beside the note: where it is in the queue. */
export interface NoteJobColumns {
  /** A synchronous note, and every note made before 0017, is `ready`. */
  status: NoteStatus;
  /** Which run of the job owns the note: a result is stored only by the run whose attempt it still is. */
  attempt: number;
  /** When the current attempt started (`generating`); a run older than the lease may be taken over. */
  started_at: number | null;
  /** A `queued` note retried after a failed run: not run before this (the backoff). */
  run_after: number | null;
  /** Why it failed (`failed`): an error code and a message that never quotes the visit. */
  error_code: string | null;
  error_message: string | null;
  callback_url: string | null;
  /** JSON of the create request (without `async`, `callback_url`); null once the note is written or failed. */
  request: string | null;
  /** JSON NoteInclude[] the request asked for: what the `note.ready` event carries. */
  includes: string | null;
}

export interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  environment: Environment;
  url: string;
  description: string | null;
  /** JSON WebhookEventType[]. */
  events: string;
  secret_sealed: string;
  secret_hint: string;
  created_at: number;
}

/** One per project environment: signs the events sent to its notes' callback_url. */
export interface CallbackSecretsTable {
  project_id: string;
  environment: Environment;
  secret_sealed: string;
  secret_hint: string;
  created_at: number;
}

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

/** One event for one receiver; deleted with its note (retention) or its endpoint. */
export interface WebhookDeliveriesTable {
  id: string;
  note_id: string;
  project_id: string;
  environment: Environment;
  /** Null for the note's callback_url. */
  endpoint_id: string | null;
  /** The endpoint's id or `callback`: one delivery per note and receiver (unique). */
  target: string;
  url: string;
  event_id: string;
  event_type: WebhookEventType;
  status: WebhookDeliveryStatus;
  /** Attempts made. */
  attempts: number;
  /** While pending: when the next attempt is due. */
  next_attempt_at: number | null;
  /** While sending: until when the sender holds it; past it another may take it over. */
  lease_until: number | null;
  created_at: number;
}

/** The delivery log: every attempt's time, answer or failure, and duration; never the body. */
export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  number: number;
  attempted_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface JobTables {
  webhook_endpoints: WebhookEndpointsTable;
  callback_secrets: CallbackSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
}
