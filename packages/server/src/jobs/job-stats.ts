/**
 * What this process's jobs came to, since it started: counters a metrics endpoint reads (with the
 * queue's depth, JobQueue.depth()). Per process, as Prometheus counters are; a scrape of each
 * process sums them.
 */
export const NOTE_JOB_OUTCOMES = ['ready', 'failed', 'retried', 'superseded'] as const;
export type NoteJobOutcome = (typeof NOTE_JOB_OUTCOMES)[number];

export const DELIVERY_OUTCOMES = ['succeeded', 'failed', 'retried'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

export class JobStats {
  /**
   * Note job runs by how they ended: the note stored `ready` or `failed`, the run failed and the
   * note went back to the queue (`retried`), or another run of the same job owned it (`superseded`).
   */
  readonly notes: Record<NoteJobOutcome, number> = { ready: 0, failed: 0, retried: 0, superseded: 0 };
  /** Webhook attempts by how they ended. */
  readonly deliveries: Record<DeliveryOutcome, number> = { succeeded: 0, failed: 0, retried: 0 };

  note(outcome: NoteJobOutcome): void {
    this.notes[outcome] += 1;
  }

  delivery(outcome: DeliveryOutcome): void {
    this.deliveries[outcome] += 1;
  }
}
