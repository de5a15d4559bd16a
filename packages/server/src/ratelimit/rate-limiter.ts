import { AppError } from '../errors.js';

/** Request counts of the current and the previous fixed window for one subject. */
export interface WindowCounts {
  current: number;
  previous: number;
}

/** Where counts live: process memory for one instance, Redis when several instances share limits. */
export interface RateLimitStore {
  /** Adds one hit to `subject`'s window `windowIndex` and returns both windows' counts after it. */
  increment(subject: string, windowIndex: number, windowMs: number): Promise<WindowCounts>;
  /** Both windows' counts as they stand, adding nothing. */
  peek(subject: string, windowIndex: number): Promise<WindowCounts>;
  close(): Promise<void>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a refused caller may try again (0 when allowed). */
  retryAfterSeconds: number;
  /**
   * Seconds until the caller has room again: with requests remaining, until the current window
   * ends; with none left, until the next one fits, so a refusal's equals its `retryAfterSeconds`.
   */
  resetSeconds: number;
}

/**
 * Sliding-window counter: the previous window's count, weighted by how much of it still overlaps
 * the sliding window, plus the current window's count. Smooths the double burst a plain fixed
 * window allows at its edges while costing one counter per window.
 */
export function decide(counts: WindowCounts, limit: number, windowMs: number, now: number): RateLimitDecision {
  const elapsed = now % windowMs;
  const weighted = Math.floor((counts.previous * (windowMs - elapsed)) / windowMs) + counts.current;
  const allowed = weighted <= limit;
  const remaining = Math.max(0, limit - weighted);
  // Whole seconds, rounded up, so a client that waits them always finds room.
  const untilRoom = remaining > 0 ? 0 : Math.max(1, Math.ceil(msUntilRoom(counts, limit, windowMs, elapsed) / 1000));
  const resetSeconds = remaining > 0 ? Math.max(1, Math.ceil((windowMs - elapsed) / 1000)) : untilRoom;
  return { allowed, limit, remaining, retryAfterSeconds: allowed ? 0 : untilRoom, resetSeconds };
}

/** When one more request would fit, as the previous window slides out of the weighted count. */
function msUntilRoom(counts: WindowCounts, limit: number, windowMs: number, elapsed: number): number {
  if (counts.current < limit && counts.previous > 0) {
    // previous * (W - t) / W + current + 1 <= limit, solved for the elapsed time t.
    const t = windowMs * (1 - (limit - counts.current - 1) / counts.previous);
    return Math.max(0, t - elapsed);
  }
  // This window is full on its own: wait for the next one, where it becomes the weighted previous.
  const t = windowMs * (1 - (limit - 1) / Math.max(counts.current, 1));
  return windowMs - elapsed + Math.max(0, t);
}

/** How long a caller refused for an unreachable store is asked to wait: an outage outlasts a moment. */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly now: () => number,
  ) {}

  async hit(subject: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    const counts = await this.counted(() => this.store.increment(subject, Math.floor(now / windowMs), windowMs));
    return decide(counts, limit, windowMs, now);
  }

  /**
   * Whether one more hit would be allowed, without counting one: for limits that count only some
   * outcomes (failed authentications), checked before the outcome is known.
   */
  async peek(subject: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    const counts = await this.counted(() => this.store.peek(subject, Math.floor(now / windowMs)));
    return decide({ previous: counts.previous, current: counts.current + 1 }, limit, windowMs, now);
  }

  /**
   * A store that cannot count (Redis down) leaves the request neither allowed nor refused for its
   * rate: it is the service that is unavailable, a 503 the caller retries, not a 500.
   */
  private async counted(count: () => Promise<WindowCounts>): Promise<WindowCounts> {
    try {
      return await count();
    } catch (error) {
      throw new AppError('service_unavailable', 'Request rates cannot be counted right now; retry shortly.', {
        headers: { 'retry-after': String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
        cause: error,
      });
    }
  }
}
