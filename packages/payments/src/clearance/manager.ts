import { asc, eq } from "drizzle-orm";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { Store } from "@ndc/store";
import { fingerprint, readKey, writeKey } from "../ledger/idempotency";
import { clearanceById, markCleared } from "./rows";
import { paymentClearances as C } from "./tables";
import type { Clearance, ClearanceDesk } from "./types";

/** Clearances cleared per sweep: a run stays short, the next takes the rest. */
export const CLEARANCE_BATCH = 200;

/** What PaymentClearanceRQ asks (decoded in @ndc/messages): one clearance, its amount and who asks. */
export interface ClearanceAsk {
  clearanceId: string;
  agencyId: string;
  amountMinor: number;
  currency: string;
  /**
   * The request's idempotency key (its CorrelationID and TrxID): a retry under the same key, after
   * a lost answer, gets the first answer again instead of clearance_already_cleared. The same key
   * with another clearance or amount is idempotency_key_reused. Absent: nothing is replayed.
   */
  requestKey?: string;
}

const REQUEST_OPERATION = "clearByRequest";

/**
 * The simulated Clearance Manager (spec 3 "Clearance", SwO). Clearances are requested by the
 * ledger at capture (rows.ts); the manager clears each requested one, for exactly its amount,
 * either on its sweep (the scheduler's `payments.clearance` job) or when PaymentClearanceRQ asks.
 * Each clearing is one conditional write with its notification, so the sweep and a request, in
 * one process or two, clear a payment once: the loser finds it cleared.
 */
export class ClearanceManager {
  constructor(private readonly deps: { store: Store; clock: Clock; desk: ClearanceDesk }) {}

  /** Clears requested clearances, oldest first, at most CLEARANCE_BATCH; returns how many it cleared. */
  async clearDue(limit = CLEARANCE_BATCH): Promise<{ cleared: number }> {
    const due = await this.deps.store.db.select({ id: C.clearanceId }).from(C).where(eq(C.status, "requested")).orderBy(asc(C.requestedAt)).limit(limit).all();
    let cleared = 0;
    for (const { id } of due) {
      const done = await this.deps.store.write((tx) => markCleared(tx, this.deps.desk, id, "manager", this.deps.clock.now()));
      if (done) cleared++;
    }
    return { cleared };
  }

  /**
   * PaymentClearanceRQ: clears the caller's one requested clearance for exactly its amount.
   * Another agency's clearance is answered as a missing one; a cleared or cancelled one, or a
   * different amount or currency, is refused naming the element at fault. Checked again inside
   * the write, so a sweep clearing it meanwhile makes this one clearance_already_cleared. A
   * refund clearance is the airline's to pay, not the agency's to clear (clearance_is_refund).
   */
  async clearByRequest(ask: ClearanceAsk): Promise<Clearance> {
    const { requestKey, ...asked } = ask;
    // Per agency: another agency's CorrelationID never finds this one's answer.
    const key = requestKey === undefined ? undefined : `clearance-request/${ask.agencyId}/${requestKey}`;
    const fp = fingerprint(asked);
    return this.deps.store.write(async (tx) => {
      // The key's answer is stored in the clearing's own write: a retry finds both or neither.
      const first = key ? await readKey<Clearance>(tx, key, REQUEST_OPERATION, fp) : undefined;
      if (first?.state === "done" && first.response) return first.response;
      const found = await clearanceById(tx, ask.clearanceId);
      if (!found || found.agencyId !== ask.agencyId) throw new GatewayError("clearance_not_found", { element: "Clearance/ClearanceData/ClearanceID" });
      if (found.direction === "refund") throw new GatewayError("clearance_is_refund", { detail: `It gives back a refund of payment ${found.legId}.`, element: "Clearance/ClearanceData/ClearanceID" });
      if (found.status === "cleared") throw new GatewayError("clearance_already_cleared", { element: "Clearance/ClearanceData/ClearanceID" });
      if (found.status === "cancelled") throw new GatewayError("clearance_cancelled", { element: "Clearance/ClearanceData/ClearanceID" });
      if (found.currency !== ask.currency || found.amount !== ask.amountMinor) {
        throw new GatewayError("clearance_amount_mismatch", {
          detail: "NetClearanceAmount must be exactly the payment's captured amount in its currency.",
          element: "Clearance/ClearanceData/NetClearanceAmount",
        });
      }
      const now = this.deps.clock.now();
      const cleared = await markCleared(tx, this.deps.desk, found.clearanceId, "request", now);
      if (!cleared) throw new GatewayError("clearance_already_cleared", { element: "Clearance/ClearanceData/ClearanceID" });
      if (key) await writeKey(tx, key, REQUEST_OPERATION, fp, "done", cleared, now);
      return cleared;
    });
  }
}
