/**
 * Waiting work of many tenants, served in turn: each take comes from the tenant with work waiting
 * that was served least recently, so a tenant that queues a hundred notes delays another's one by
 * at most one note per worker, not by a hundred. Within a tenant, first in, first out.
 */
export class FairQueue<Item> {
  readonly #waiting = new Map<string, Item[]>();
  /** When each tenant was last served, in takes; a tenant never served (or forgotten) goes first. */
  readonly #lastServed = new Map<string, number>();
  #takes = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Items `tenant` has waiting. */
  sizeOf(tenant: string): number {
    return this.#waiting.get(tenant)?.length ?? 0;
  }

  push(tenant: string, item: Item): void {
    const waiting = this.#waiting.get(tenant);
    if (waiting === undefined) this.#waiting.set(tenant, [item]);
    else waiting.push(item);
    this.#size++;
  }

  /** The next item, from the tenant whose turn it is. */
  shift(): Item | undefined {
    let next: string | undefined;
    let nextServed = Infinity;
    for (const tenant of this.#waiting.keys()) {
      const served = this.#lastServed.get(tenant) ?? -1;
      if (served < nextServed) {
        next = tenant;
        nextServed = served;
      }
    }
    if (next === undefined) return undefined;
    const waiting = this.#waiting.get(next) ?? [];
    const item = waiting.shift();
    if (waiting.length === 0) this.#waiting.delete(next);
    this.#lastServed.set(next, this.#takes++);
    this.#size--;
    this.forgetIdle();
    return item;
  }

  /** Takes `item` out wherever it waits; false when it was not waiting. */
  remove(item: Item): boolean {
    for (const [tenant, waiting] of this.#waiting) {
      const index = waiting.indexOf(item);
      if (index === -1) continue;
      waiting.splice(index, 1);
      if (waiting.length === 0) this.#waiting.delete(tenant);
      this.#size--;
      return true;
    }
    return false;
  }

  /** Every item, emptying the queue. */
  drain(): Item[] {
    const items = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    this.#size = 0;
    return items;
  }

  /**
   * Bounds the memory of who was served: past this many tenants, those with nothing waiting are
   * forgotten (their next item goes first once, which costs the others one turn at most).
   */
  private forgetIdle(): void {
    if (this.#lastServed.size <= MAX_REMEMBERED_TENANTS) return;
    for (const tenant of this.#lastServed.keys()) {
      if (!this.#waiting.has(tenant)) this.#lastServed.delete(tenant);
    }
  }
}

const MAX_REMEMBERED_TENANTS = 1024;
