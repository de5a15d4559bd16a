/**
 * A value that changes only through its transition function, one event at a time, and tells its
 * subscribers; the UI renders from it.
 */
export class Store<S, E> {
  private value: S;
  private readonly listeners = new Set<(state: S) => void>();

  constructor(
    initial: S,
    private readonly transition: (state: S, event: E) => S,
  ) {
    this.value = initial;
  }

  get state(): S {
    return this.value;
  }

  dispatch(event: E): void {
    const next = this.transition(this.value, event);
    // An event that changed nothing has nothing to tell.
    if (next === this.value) return;
    this.value = next;
    for (const listener of this.listeners) listener(this.value);
  }

  subscribe(listener: (state: S) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
