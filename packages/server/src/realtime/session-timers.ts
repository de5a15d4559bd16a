import type { Timer, TimerName } from './session-machine/index.js';

/** A session's timers by name: scheduling one replaces the one of that name before it. */
export class SessionTimers {
  readonly #timers = new Map<TimerName, NodeJS.Timeout>();

  constructor(private readonly fire: (timer: Timer) => void) {}

  schedule(timer: Timer, ms: number, repeat: boolean): void {
    this.clear(timer.name);
    const handle = repeat
      ? setInterval(() => {
          this.fire(timer);
        }, ms)
      : setTimeout(() => {
          this.#timers.delete(timer.name);
          this.fire(timer);
        }, ms);
    this.#timers.set(timer.name, handle);
  }

  clear(name: TimerName): void {
    clearTimeout(this.#timers.get(name));
    this.#timers.delete(name);
  }

  clearAll(): void {
    for (const handle of this.#timers.values()) clearTimeout(handle);
    this.#timers.clear();
  }
}
