import { GatewayError } from "@ndc/errors";
import { toDecimalString } from "@ndc/money";
import { clearanceById, clearByStaff, reRequestClearance, unclearClearances, unclearGrounds, type ClearanceDesk } from "@ndc/payments";
import { appendAudit, claimsOf, recordAudit, statedReason } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";

/**
 * The unclear-clearances work queue (issue 12 item 7; docs/payments.md "Unclear clearances"):
 * settlement-plan clearances still requested past the time they should have cleared, with their
 * age and who took them; staff clear one by hand (the sweep's own conditional write) or ask the
 * Clearance Manager again (cancel and re-request), with a note, the audit row in the same write.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** The ledger's clearance desk: the one that writes each event's payment.clearance notification. */
function deskOf(deps: StaffDeps): ClearanceDesk {
  const desk = deps.orders.ctx.payments.ledger.clearance;
  if (!desk) throw new GatewayError("internal_error", { detail: "This gateway clears no settlement-plan payment." });
  return desk;
}

/** An unclear clearance by id (its order, for the audit), or undefined: the queue's take checks this. */
export async function openClearance(deps: StaffDeps, clearanceId: string): Promise<{ orderId: string } | undefined> {
  const c = await clearanceById(deps.store.db, clearanceId);
  return c && unclearGrounds(c, deps.clock.now()).length ? { orderId: c.orderId } : undefined;
}

export async function clearancesQueue(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "queue.read", { action: "queue.view" });
  const now = deps.clock.now();
  const [items, claims] = await Promise.all([unclearClearances(deps.store.db, now), claimsOf(deps.store.db, "unclear_clearances")]);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: now, action: "queue.view", outcome: "ok", detail: `unclear_clearances: ${items.length} open` });
  return {
    items: items.map((c) => {
      const claim = claims.get(c.clearanceId);
      return {
        clearanceId: c.clearanceId, orderId: c.orderId, legId: c.legId, agencyId: c.agencyId, grounds: c.grounds,
        // Signed as on the wire: a refund clearance (the airline gives money back) is negative.
        direction: c.direction, amount: toDecimalString({ amount: c.direction === "refund" ? -c.amount : c.amount, currency: c.currency as never }), currency: c.currency, settlementMethod: c.settlementMethod,
        requestedAt: iso(c.requestedAt), settlementDate: c.settlementDate, ageSeconds: Math.max(0, Math.floor((now - c.requestedAt) / 1000)),
        ...(claim ? { takenBy: claim.username, takenAt: iso(claim.takenAt) } : {}),
      };
    }),
  };
}

/**
 * `clear`: the money is seen to have arrived, cleared by staff (FLSTL pushed); `rerequest`: the
 * Clearance Manager is asked again under a new ClearanceID (CNCLD then ACCPT pushed). Only an
 * unclear clearance: one cleared or cancelled meanwhile is refused naming clearanceId.
 */
export async function actOnClearance(deps: StaffDeps, caller: StaffCaller, clearanceId: string, act: "clear" | "rerequest", body: Record<string, unknown>) {
  const action = act === "clear" ? "clearance.clear" : "clearance.rerequest";
  await requireRight(deps, caller, "queue.resolve", { action });
  const { reason: note } = statedReason(body, false, "note");
  const item = await openClearance(deps, clearanceId);
  if (!item) {
    const c = await clearanceById(deps.store.db, clearanceId);
    if (!c) throw new GatewayError("staff_target_not_found", { element: "clearanceId" });
    if (c.status === "cleared") throw new GatewayError("clearance_already_cleared", { element: "clearanceId" });
    if (c.status === "cancelled") throw new GatewayError("clearance_cancelled", { element: "clearanceId" });
    throw new GatewayError("staff_target_not_found", { detail: "The clearance is requested but not unclear yet: the Clearance Manager is still expected to clear it.", element: "clearanceId" });
  }
  const now = deps.clock.now();
  const desk = deskOf(deps);
  return deps.store.write(async (tx) => {
    const audit = (detail: string) => appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action, outcome: "ok", orderId: item.orderId, reason: note, detail });
    if (act === "clear") {
      const cleared = await clearByStaff(tx, desk, clearanceId, now);
      await audit(`clearance ${clearanceId} cleared`);
      return { clearanceId, status: cleared.status, clearedBy: "staff", clearedAt: iso(now) };
    }
    const { requested } = await reRequestClearance(tx, desk, clearanceId, now);
    await audit(`clearance ${clearanceId} cancelled; requested again as ${requested.clearanceId}`);
    return { clearanceId, status: "cancelled", requested: { clearanceId: requested.clearanceId, status: requested.status, requestedAt: iso(requested.requestedAt) } };
  });
}
