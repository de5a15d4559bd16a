/** A value that changes over time and tells its subscribers; the UI renders from it. */
export class Store<S extends object> {
  private value: S;
  private readonly listeners = new Set<(state: S) => void>();

  constructor(initial: S) {
    this.value = initial;
  }

  get state(): S {
    return this.value;
  }

  update(change: Partial<S> | ((state: S) => Partial<S>)): void {
    const patch = typeof change === 'function' ? change(this.value) : change;
    this.value = { ...this.value, ...patch };
    for (const listener of this.listeners) listener(this.value);
  }

  subscribe(listener: (state: S) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
