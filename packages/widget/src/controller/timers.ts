export type Timer = ReturnType<typeof setTimeout>;

/** The controller's timers, all cleared when it is disposed; none runs after that. */
export class Timers {
  private readonly pending = new Set<Timer>();
  private disposed = false;

  later(ms: number, run: () => void): Timer {
    // Beyond a 32-bit delay setTimeout fires at once; tokens live 7 days at most, well within it.
    const timer = setTimeout(
      () => {
        this.pending.delete(timer);
        if (!this.disposed) run();
      },
      Math.min(ms, 2 ** 31 - 1),
    );
    this.pending.add(timer);
    return timer;
  }

  cancel(timer: Timer): void {
    clearTimeout(timer);
    this.pending.delete(timer);
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
