import { and, asc, eq, ne } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import { tables } from "@ndc/store";
import type { PaymentLeg } from "../legs/types";
import { clearanceIdOf } from "./clearance-id";
import { clearanceDates } from "./schedule";
import { paymentClearances as C } from "./tables";
import type { Clearance, ClearanceDesk, ClearanceEvent, ClearedBy } from "./types";

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function clearanceOf(r: typeof C.$inferSelect): Clearance {
  return {
    clearanceId: r.clearanceId,
    legId: r.legId,
    orderId: r.orderId,
    agencyId: r.agencyId,
    status: r.status,
    amount: r.amount,
    currency: r.currency,
    settlementMethod: r.settlementMethod,
    committedAt: r.committedAt,
    remittanceDate: r.remittanceDate,
    settlementDate: r.settlementDate,
    requestedAt: r.requestedAt,
    clearedBy: opt(r.clearedBy),
    clearedAt: opt(r.clearedAt),
    cancelledAt: opt(r.cancelledAt),
    direction: r.direction,
    reverses: opt(r.reverses),
  };
}

/** The payment's clearance that is not cancelled (at most one: the partial unique index). */
async function liveClearance(tx: StoreDb, legId: string): Promise<Clearance | undefined> {
  const row = await tx.select().from(C).where(and(eq(C.legId, legId), ne(C.status, "cancelled"), eq(C.direction, "sale"))).get();
  return row ? clearanceOf(row) : undefined;
}

async function emit(tx: StoreDb, desk: ClearanceDesk, e: ClearanceEvent): Promise<void> {
  if (desk.hook) await desk.hook(tx, e);
}

/**
 * STTCAP: one clearance (also staff re-requesting one the Clearance Manager did not clear, unclear.ts) for exactly the amount still owed on a settlement leg, with its notification.
 * With `refund`: the refund clearance of a payment refunded after its sale clearance cleared, for exactly the amount refunded.
 */
export async function requestClearance(tx: StoreDb, desk: ClearanceDesk, leg: PaymentLeg, amount: number, now: number, refund?: { reverses: string }): Promise<Clearance> {
  const account = await tx.select({ agencyId: tables.settlementAccounts.agencyId }).from(tables.settlementAccounts).where(eq(tables.settlementAccounts.accountId, leg.settlementAccountId!)).get();
  // The n-th clearance of this leg; an id another leg already holds (8 characters, so rare, not impossible) takes the next n.
  let n = (await tx.select({ id: C.clearanceId }).from(C).where(eq(C.legId, leg.legId)).all()).length + 1;
  while (await clearanceById(tx, clearanceIdOf(desk.carrier.accountingCode, leg.legId, n, now))) n++;
  const row: Clearance = {
    clearanceId: clearanceIdOf(desk.carrier.accountingCode, leg.legId, n, now),
    legId: leg.legId,
    orderId: leg.orderId,
    agencyId: account!.agencyId,
    status: "requested",
    amount,
    currency: leg.currency,
    settlementMethod: leg.settlementMethod ?? "CA",
    committedAt: now,
    ...clearanceDates(now),
    requestedAt: now,
    direction: refund ? "refund" : "sale",
    ...(refund ? { reverses: refund.reverses } : {}),
  };
  await tx.insert(C).values(row).run();
  await emit(tx, desk, { event: refund ? "refund" : "STTCAP", clearance: row, at: now });
  return row;
}

/**
 * The clearance side of a ledger step on a settlement leg, in the step's transaction (steps.ts):
 * a capture requests the clearance (STTCAP); a refund before the clearance cleared cancels it
 * (STTCAN) and, when part of the payment is kept, requests a new one for exactly what is kept. A
 * void ends an authorisation that was never captured, so no clearance was ever requested for it.
 * A refund after clearing leaves the sale clearance as it is (the money has moved) and requests a
 * refund clearance for exactly the amount refunded (issue 19 item 13): the settlement account is
 * credited at once (its `used` goes down), and the money goes back to the agency through SwO as it
 * came, on the schedule of the refund's day (docs/payments.md).
 */
export async function clearanceStep(tx: StoreDb, desk: ClearanceDesk, step: "capture" | "void" | "refund", after: PaymentLeg, now: number, amount?: number): Promise<void> {
  if (after.kind !== "settlement") return;
  if (step === "capture") {
    if (!(await liveClearance(tx, after.legId))) await requestClearance(tx, desk, after, after.captured, now);
    return;
  }
  if (step !== "refund") return;
  const live = await liveClearance(tx, after.legId);
  if (live?.status === "cleared" && amount !== undefined && amount > 0) {
    await requestClearance(tx, desk, after, amount, now, { reverses: live.clearanceId });
    return;
  }
  if (!live || live.status !== "requested") return;
  await markCancelled(tx, desk, live.clearanceId, now);
  const kept = after.captured - after.refunded;
  if (kept > 0) await requestClearance(tx, desk, after, kept, now);
}

/** Clears one requested clearance in the caller's transaction; undefined when it is no longer requested (a race lost). */
export async function markCleared(tx: StoreDb, desk: ClearanceDesk, clearanceId: string, by: ClearedBy, now: number): Promise<Clearance | undefined> {
  const rows = await tx.update(C).set({ status: "cleared", clearedBy: by, clearedAt: now }).where(and(eq(C.clearanceId, clearanceId), eq(C.status, "requested"))).returning().all();
  if (!rows[0]) return undefined;
  const cleared = clearanceOf(rows[0]);
  await emit(tx, desk, { event: "cleared", clearance: cleared, at: now });
  return cleared;
}

/** STTCAN: cancels one requested clearance in the caller's transaction, with its notification; undefined when it is no longer requested. */
export async function markCancelled(tx: StoreDb, desk: ClearanceDesk, clearanceId: string, now: number): Promise<Clearance | undefined> {
  const rows = await tx.update(C).set({ status: "cancelled", cancelledAt: now }).where(and(eq(C.clearanceId, clearanceId), eq(C.status, "requested"))).returning().all();
  if (!rows[0]) return undefined;
  const cancelled = clearanceOf(rows[0]);
  await emit(tx, desk, { event: "STTCAN", clearance: cancelled, at: now });
  return cancelled;
}

/** Every clearance of an order, oldest first (the closing check; staff views). */
export async function orderClearances(db: StoreDb, orderId: string): Promise<Clearance[]> {
  return (await db.select().from(C).where(eq(C.orderId, orderId)).orderBy(asc(C.requestedAt)).all()).map(clearanceOf);
}

export async function clearanceById(db: StoreDb, clearanceId: string): Promise<Clearance | undefined> {
  const row = await db.select().from(C).where(eq(C.clearanceId, clearanceId)).get();
  return row ? clearanceOf(row) : undefined;
}
