type Listener<T> = (event: T) => void;

/** A minimal typed event emitter (no Node `events`, so it runs in browsers as it is). */
export class TypedEmitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof Events>(type: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(type);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener);
    return () => this.off(type, listener);
  }

  /** Like `on`, for the next event of `type` only. */
  once<K extends keyof Events>(type: K, listener: Listener<Events[K]>): () => void {
    const remove = this.on(type, (event) => {
      remove();
      listener(event);
    });
    return remove;
  }

  off<K extends keyof Events>(type: K, listener: Listener<Events[K]>): void {
    this.listeners.get(type)?.delete(listener);
  }

  /** Calls the listeners of `type`; one that throws does not keep the others (or the session) from running. */
  protected emit<K extends keyof Events>(type: K, event: Events[K], onListenerError: (error: unknown) => void): void {
    const set = this.listeners.get(type) as Set<Listener<Events[K]>> | undefined;
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (error) {
        onListenerError(error);
      }
    }
  }
}
