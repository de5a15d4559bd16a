import type { ClientTimer } from './session-machine/index.js';

/** A session's timers by name: scheduling one replaces the one of that name before it. */
export class SessionTimers {
  readonly #timers = new Map<ClientTimer, ReturnType<typeof setTimeout>>();

  constructor(private readonly fire: (timer: ClientTimer) => void) {}

  schedule(timer: ClientTimer, ms: number, repeat: boolean): void {
    this.clear(timer);
    const run = () => {
      if (!repeat) this.#timers.delete(timer);
      this.fire(timer);
    };
    this.#timers.set(timer, repeat ? setInterval(run, ms) : setTimeout(run, ms));
  }

  clear(timer: ClientTimer): void {
    clearTimeout(this.#timers.get(timer));
    this.#timers.delete(timer);
  }

  clearAll(): void {
    for (const handle of this.#timers.values()) clearTimeout(handle);
    this.#timers.clear();
  }
}
