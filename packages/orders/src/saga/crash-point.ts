/**
 * Test hook for the crash tests: with NDC_ORDERS_CRASH_AT naming a step, the process kills
 * itself with SIGKILL the moment a saga reaches it (no cleanup, no flush: what a power cut
 * leaves). Unset in production; reading one variable costs nothing. One point at each boundary
 * of OrderCreate's phases (create/saga.ts): after the open write, after the PSP authorised,
 * after the commit write, before and after the PSP captured, after the close write; and at each
 * boundary of the cancellation (cancel/saga.ts): after its commit write, after the PSP refunded,
 * after its close write (an items cancellation, cancel/items-saga.ts, passes the same three); and at each boundary of a post-sale change (servicing/add/saga.ts).
 */
export type CrashPoint =
  | "after_holds"
  | "after_authorise"
  | "after_commit"
  | "before_capture"
  | "after_capture"
  | "after_close"
  | "cancel_after_commit"
  | "cancel_after_refund"
  | "cancel_after_close"
  // The post-sale change's phases (servicing/add/saga.ts), at the same boundaries.
  | "add_after_open"
  | "add_after_authorise"
  | "add_after_commit"
  | "add_after_capture"
  | "add_after_close"
  // The flight change's phases (servicing/flight/saga.ts); its capture and close are the add's (finishCharge).
  | "flight_after_open"
  | "flight_after_authorise"
  | "flight_after_commit"
  // A cheaper flight change's refund (servicing/flight/refund.ts): after the PSP paid back, after the close write.
  | "flight_after_refund"
  | "flight_after_close";

export function crashPoint(point: CrashPoint): void {
  if (process.env.NDC_ORDERS_CRASH_AT === point) process.kill(process.pid, "SIGKILL");
}

/**
 * Test hook for the outage tests (test/multi/outage-mid-saga.test.ts): with
 * NDC_ORDERS_PAUSE_AT="<point>:<ms>", a saga reaching that point of the runner's steps waits `ms`
 * before its next step, so a test can take the database's write lock while the saga is half done
 * and see what a transient failure there leaves. Unset in production: nothing to wait for.
 */
export function pausePoint(point: CrashPoint): Promise<void> | undefined {
  const at = process.env.NDC_ORDERS_PAUSE_AT;
  if (!at || !at.startsWith(`${point}:`)) return undefined;
  return new Promise((r) => setTimeout(r, Number(at.slice(point.length + 1))));
}
