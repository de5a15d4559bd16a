/**
 * At most `max` transcription requests in flight per engine; the rest wait their turn in order.
 * What waits is bounded elsewhere: each stream fails as overloaded past its pending-audio bound.
 */
/** The signal's reason as an Error (an `abort()` without a reason gives a DOMException, which is one). */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('the operation was aborted', { cause: reason });
}

export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('the concurrency limit must be a whole number ≥ 1');
  }

  /** Resolves with the release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    if (this.active < this.max) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.releaser());
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(abortError(signal));
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter, so `active` only drops when nobody waits.
      const next = this.waiting.shift();
      if (next === undefined) this.active -= 1;
      else next();
    };
  }
}
