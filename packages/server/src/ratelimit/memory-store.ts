import type { RateLimitStore, WindowCounts } from './rate-limiter.js';

interface Entry {
  windowIndex: number;
  current: number;
  previous: number;
}

/** Per-process counts. Memory stays bounded: a subject idle for two windows is swept away. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #entries = new Map<string, Entry>();
  #lastSweepWindow = -1;

  increment(subject: string, windowIndex: number): Promise<WindowCounts> {
    this.#sweep(windowIndex);
    // Counted in place: a subject's entry is its own, and this runs on every limited request.
    let entry = this.#entries.get(subject);
    if (entry === undefined) {
      entry = { windowIndex, current: 1, previous: 0 };
      this.#entries.set(subject, entry);
    } else if (entry.windowIndex === windowIndex) {
      entry.current += 1;
    } else {
      entry.previous = entry.windowIndex === windowIndex - 1 ? entry.current : 0;
      entry.current = 1;
      entry.windowIndex = windowIndex;
    }
    return Promise.resolve({ current: entry.current, previous: entry.previous });
  }

  peek(subject: string, windowIndex: number): Promise<WindowCounts> {
    const entry = this.#entries.get(subject);
    if (entry?.windowIndex === windowIndex)
      return Promise.resolve({ current: entry.current, previous: entry.previous });
    const previous = entry?.windowIndex === windowIndex - 1 ? entry.current : 0;
    return Promise.resolve({ current: 0, previous });
  }

  get size(): number {
    return this.#entries.size;
  }

  close(): Promise<void> {
    this.#entries.clear();
    return Promise.resolve();
  }

  #sweep(windowIndex: number): void {
    if (windowIndex === this.#lastSweepWindow) return;
    this.#lastSweepWindow = windowIndex;
    for (const [subject, entry] of this.#entries) {
      if (entry.windowIndex < windowIndex - 1) this.#entries.delete(subject);
    }
  }
}
