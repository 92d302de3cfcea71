/** The rows bench/worker-stats.ts (preloaded into a serve's processes) keeps besides each statement's, by name; read by bench/scale-out.ts. */
export interface Stat {
  n: number;
  ms: number;
  busy: number;
}
/** The write lock held: n times, ms in all (each BEGIN IMMEDIATE that took it to its COMMIT or ROLLBACK). */
export const LOCK_HELD = "(write lock held)";
/** The statements' wall time inside the lock. */
export const IN_LOCK = "(statements inside the lock)";
/** Batches that let the event loop run other work (I/O callbacks, timers) while holding the lock. */
export const YIELDED = "(batches that yielded holding the lock)";
