import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Serialises work per key inside this process, like a mailbox without an actor's state: for work
 * that spans several actors or none (one operation, one order's payment legs).
 *
 * Reentrant: work already holding a key (in its async context) runs again under it at once, so
 * the request layer, the saga it starts and the steps that saga shares with the reconciler take
 * one lock per operation instead of one each (issue 8 §1, one per-key serialiser).
 */
export class KeyedLock {
  private tails = new Map<string, Promise<unknown>>();
  private readonly held = new AsyncLocalStorage<ReadonlySet<string>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const mine = this.held.getStore();
    if (mine?.has(key)) return fn();
    const inside = () => this.held.run(new Set(mine ?? []).add(key), fn);
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(inside, inside);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await next;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Whether the calling work holds `key`. */
  holds(key: string): boolean {
    return this.held.getStore()?.has(key) ?? false;
  }
}
