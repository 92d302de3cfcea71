import type { StoreDb } from "./open";

type Deferred = (tx: StoreDb) => Promise<void> | void;

/** Per write connection: the work deferred to the end of the write now running (writes run one at a time). */
const pending = new WeakMap<object, Map<string, Deferred>>();

/**
 * Runs `fn` at the end of the current write, inside its transaction, after everything else the
 * write does: for rows derived from several others that the write may change in any order (an
 * order's encoded view is derived from the order, its legs and its documents, and a joint write
 * persists the order before the ledger rows). Keyed: a second call with the same key in one write
 * replaces the first, so the derived row is built once, from the last state.
 */
export function atEndOfWrite(tx: StoreDb, key: string, fn: Deferred): void {
  let byKey = pending.get(tx);
  if (!byKey) pending.set(tx, (byKey = new Map()));
  byKey.set(key, fn);
}

/** The drivers' wrapper around one write's function: runs it, then what it deferred; a throw drops what was deferred. */
export async function withEndOfWrite<T>(tx: StoreDb, work: () => Promise<T> | T): Promise<T> {
  pending.delete(tx);
  try {
    const result = await work();
    for (let byKey = pending.get(tx); byKey?.size; byKey = pending.get(tx)) {
      pending.delete(tx);
      for (const fn of byKey.values()) await fn(tx);
    }
    return result;
  } finally {
    pending.delete(tx);
  }
}
