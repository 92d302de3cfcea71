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

/** Per write connection: what the write now running asked to be told once it is durable. */
const onCommit = new WeakMap<object, (() => void)[]>();

/**
 * Runs `fn` once the current write has committed durably (never if it rolls back): for a record
 * kept outside the database that must never run ahead of it (the staff audit's anchor). Runs
 * after the write's promise settles its COMMIT, before its caller resumes; a throw is swallowed
 * (the write is committed: the outside record is only left behind).
 */
export function afterCommit(tx: StoreDb, fn: () => void): void {
  let fns = onCommit.get(tx);
  if (!fns) onCommit.set(tx, (fns = []));
  fns.push(fn);
}

/** The after-commit callbacks of one write, run by the driver once its COMMIT returned. */
export function runCommitted(fns: (() => void)[]): void {
  for (const fn of fns) {
    try {
      fn();
    } catch {
      // Committed is committed: the outside record stays behind until the next write moves it.
    }
  }
}

/**
 * The drivers' wrapper around one write's function: runs it, then what it deferred; a throw drops
 * what was deferred. `committed` receives the write's afterCommit callbacks for the driver to run.
 */
export async function withEndOfWrite<T>(tx: StoreDb, work: () => Promise<T> | T, committed?: (() => void)[]): Promise<T> {
  pending.delete(tx);
  onCommit.delete(tx);
  try {
    const result = await work();
    for (let byKey = pending.get(tx); byKey?.size; byKey = pending.get(tx)) {
      pending.delete(tx);
      for (const fn of byKey.values()) await fn(tx);
    }
    committed?.push(...(onCommit.get(tx) ?? []));
    return result;
  } finally {
    pending.delete(tx);
    onCommit.delete(tx);
  }
}
