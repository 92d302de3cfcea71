import { asc, eq } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import type { StoreDb } from "@ndc/store";
import { loadLeg } from "../ledger/leg-rows";
import { clearanceById, clearanceOf, markCancelled, markCleared, requestClearance } from "./rows";
import { paymentClearances as C } from "./tables";
import type { Clearance, ClearanceDesk } from "./types";

/**
 * Unclear clearances (docs/payments.md "Unclear clearances"): settlement-plan payments the airline
 * expected to see cleared and has not. The Clearance Manager's sweep clears every requested
 * clearance within a run (every 10 s), and a clearing that fails stays `requested` for the next
 * run, so one still requested an hour after its request is not being cleared (`stalled`: the sweep
 * stopped, or its clearing keeps failing); one still requested after its settlement date is money
 * the simulated SwO schedule said had reached the airline (`overdue`). Cleared and cancelled
 * clearances are settled one way or the other: never unclear.
 */
export const UNCLEAR_AFTER_MS = 3_600_000;

export type UnclearGround = "stalled" | "overdue";

export interface UnclearClearance extends Clearance {
  grounds: UnclearGround[];
}

const DAY_MS = 86_400_000;

/** Why a clearance is unclear at `now`, empty when it is not. */
export function unclearGrounds(c: Clearance, now: number): UnclearGround[] {
  if (c.status !== "requested") return [];
  const grounds: UnclearGround[] = [];
  if (now - c.requestedAt >= UNCLEAR_AFTER_MS) grounds.push("stalled");
  // Overdue once the settlement date's UTC day has ended.
  if (now >= Date.parse(`${c.settlementDate}T00:00:00Z`) + DAY_MS) grounds.push("overdue");
  return grounds;
}

/** Every unclear clearance at `now`, oldest request first (at most `limit`). */
export async function unclearClearances(db: StoreDb, now: number, limit = 500): Promise<UnclearClearance[]> {
  // Both grounds need the request to be at least UNCLEAR_AFTER_MS old (a settlement date is days after it).
  const rows = await db.select().from(C).where(eq(C.status, "requested")).orderBy(asc(C.requestedAt)).limit(limit).all();
  return rows.map(clearanceOf).flatMap((c) => {
    const grounds = unclearGrounds(c, now);
    return grounds.length ? [{ ...c, grounds }] : [];
  });
}

/** The refusal for a clearance that is no longer requested: it was settled meanwhile, one way or the other. */
function notRequested(c: Clearance | undefined): GatewayError {
  if (!c) return new GatewayError("clearance_not_found", { element: "clearanceId" });
  if (c.status === "cleared") return new GatewayError("clearance_already_cleared", { element: "clearanceId" });
  return new GatewayError("clearance_cancelled", { element: "clearanceId" });
}

/**
 * Staff clear one by hand (the money is seen to have arrived): the sweep's own conditional write
 * (`markCleared`, status requested -> cleared) with its FLSTL notification, `cleared_by` staff, in
 * the caller's transaction (with the audit row). A sweep or a PaymentClearanceRQ that cleared it
 * first makes this clearance_already_cleared.
 */
export async function clearByStaff(tx: StoreDb, desk: ClearanceDesk, clearanceId: string, now: number): Promise<Clearance> {
  const done = await markCleared(tx, desk, clearanceId, "staff", now);
  if (!done) throw notRequested(await clearanceById(tx, clearanceId));
  return done;
}

/**
 * Staff ask the Clearance Manager again (it lost or refused the request): the clearance is
 * cancelled (STTCAN) and a new one requested for exactly its amount under a new ClearanceID
 * (STTCAP), as a partial refund does, each with its notification, in the caller's transaction.
 */
export async function reRequestClearance(tx: StoreDb, desk: ClearanceDesk, clearanceId: string, now: number): Promise<{ cancelled: Clearance; requested: Clearance }> {
  const cancelled = await markCancelled(tx, desk, clearanceId, now);
  if (!cancelled) throw notRequested(await clearanceById(tx, clearanceId));
  // A refund clearance asked again stays one: the same direction, reversing the same sale clearance.
  const requested = await requestClearance(tx, desk, await loadLeg(tx, cancelled.legId), cancelled.amount, now, cancelled.reverses ? { reverses: cancelled.reverses } : undefined);
  return { cancelled, requested };
}
