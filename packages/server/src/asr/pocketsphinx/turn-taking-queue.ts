/**
 * Jobs run in the order they were queued, a slice of time at a time, with the event loop turning
 * between slices. A recognizer worker decodes its streams' audio through one: handled as each
 * message was read, the whole backlog the pipe held was decoded before anything else on the loop
 * ran, the end of a decoder's load included, so under load a new stream waited for every earlier
 * stream's queued audio (the last of 16 sessions on two cores, 22–40 s; docs/performance.md).
 */
import { performance } from 'node:perf_hooks';

/** Long enough for a job or two (100 ms of audio decodes in about 20 ms), short for a waiting load. */
const SLICE_MS = 10;
/** How many finished jobs the array keeps before it is compacted. */
const COMPACT_AFTER = 1024;

export class TurnTakingQueue {
  private jobs: (() => void)[] = [];
  /** The next job to run; those before it have run. */
  private next = 0;
  private scheduled = false;

  push(job: () => void): void {
    this.jobs.push(job);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.runSlice());
  }

  /** Jobs queued and not yet run. */
  get size(): number {
    return this.jobs.length - this.next;
  }

  private runSlice(): void {
    const until = performance.now() + SLICE_MS;
    do {
      const job = this.jobs[this.next];
      this.next += 1;
      job?.();
    } while (this.next < this.jobs.length && performance.now() < until);
    if (this.next >= COMPACT_AFTER) {
      this.jobs = this.jobs.slice(this.next);
      this.next = 0;
    }
    if (this.size > 0) setImmediate(() => this.runSlice());
    else this.scheduled = false;
  }
}
