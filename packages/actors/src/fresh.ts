import { GatewayError } from "@ndc/errors";
import { isConstraintViolation, type Store, type StoreDb } from "@ndc/store";
import type { Cell } from "./cell";
import type { ActorKind } from "./kind";

/**
 * The one rule by which a resident actor is trusted while other processes write the same store
 * (docs/decisions/0040, optimistic concurrency on the journal's (kind, key, seq) key).
 */

/** Decisions one command may take against a key other processes keep moving: then actor_busy. */
export const DECIDE_ATTEMPTS = 8;

/**
 * Makes the cell's state the store's before a command: loads it the first time and after a failed
 * write (memory may be anything then), otherwise asks whether another process wrote the key since
 * and catches up if so. A kind without freshness is loaded again every time, unless single-process.
 */
export async function bringUpToDate(kind: ActorKind<any, any, any, any>, cell: Cell<unknown, unknown>, store: Store): Promise<void> {
  // Read before the store is: a commit of another process after it moves the counter again.
  const others = store.othersCommitted?.();
  if (!cell.loaded || cell.stale) {
    cell.state = await kind.load(cell.key, store);
    cell.loaded = true;
    cell.stale = false;
    cell.othersSeen = others;
    return;
  }
  // No other connection committed anything since this state was the store's: nothing to read.
  // (This process writes a key's journal only through its actor.) Without a counter (PostgreSQL,
  // libSQL: othersCommitted undefined) this never skips: the key's head is read every command.
  if (others !== undefined && others === cell.othersSeen) return;
  const f = kind.freshness;
  if (!f) {
    if (!kind.singleProcess) cell.state = await kind.load(cell.key, store);
    cell.othersSeen = others;
    return;
  }
  cell.othersSeen = others;
  if (!(await f.movedSince(cell.key, f.at(cell.state), store))) return;
  // Behind: read only the newer events.
  cell.state = f.catchUp ? await f.catchUp(cell.state, cell.key, store) : await kind.load(cell.key, store);
}

/**
 * Inside a write, with the database's write lock held (BEGIN IMMEDIATE on the embedded store): no
 * other process can commit before this transaction ends, so a state caught up here stays the
 * store's until the COMMIT, and a decision taken again on it cannot lose its seq. Returns the state
 * brought forward when another process wrote the key since `state` was read (the caller decides
 * again on it), or undefined when `state` is current. Reads nothing while the counter of others'
 * commits stands still (one process alone on its file). Where the store takes no lock up front
 * (a libSQL server) the journal's primary key stays the arbiter (lostRace).
 */
export async function caughtUpUnderLock(kind: ActorKind<any, any, any, any>, cell: Cell<unknown, unknown>, state: unknown, store: Store, tx: StoreDb): Promise<unknown | undefined> {
  const f = kind.freshness;
  if (!f) return undefined;
  const others = store.othersCommitted?.();
  if (others !== undefined && others === cell.othersSeen) return undefined;
  const moved = await f.movedSince(cell.key, f.at(state), store, tx);
  const next = moved ? (f.catchUp ? await f.catchUp(state, cell.key, store, tx) : await kind.load(cell.key, store)) : undefined;
  cell.othersSeen = others;
  return next;
}

/**
 * Whether a failed write lost a race for the key: a constraint failure AND the key moved past
 * the state the command was decided on (another process appended that seq first). Any
 * other failure (another table's constraint, a refusal, I/O) is the caller's to see.
 */
export async function lostRace(kind: ActorKind<any, any, any, any>, key: string, decidedOn: unknown, error: unknown, store: Store): Promise<boolean> {
  const f = kind.freshness;
  if (!f || !isConstraintViolation(error)) return false;
  return f.movedSince(key, f.at(decidedOn), store);
}

/** Before deciding again: a short jittered pause so two processes racing for a key fall out of step. */
export function backoff(attempt: number): Promise<void> {
  const ms = Math.min(2 ** attempt, 32) * (0.5 + Math.random());
  return new Promise((r) => setTimeout(r, ms));
}

/** Every attempt lost its race: the key is hot across processes; the caller retries later. */
export function hotKey(kind: string, attempts: number): GatewayError {
  return new GatewayError("actor_busy", { detail: `(${kind}: other processes wrote this key ${attempts} times in a row)`, retryAfterSeconds: 1 });
}
