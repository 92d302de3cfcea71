import { GatewayError } from "@ndc/errors";
import type { StoreDb } from "@ndc/store";
import { PspTimeoutError, type PspSimulator } from "../psp/simulator";
import { fingerprint, readKey, writeKey } from "./idempotency";
import { loadLeg } from "./leg-rows";
import type { RefundShare } from "./refund-plan";
import { applyStep, checkStep } from "./steps";
import type { ClearanceDesk } from "../clearance/types";

/** The key of one leg's release: the same for every retry of the same cancellation. */
export const refundKey = (key: string, legId: string) => `${key}/${legId}`;

/**
 * A refund in a saga's atomic phases (issue 8 §1, spec 3 "Refund"): the plan (legs newest first,
 * refund-plan.ts) is written with the saga's commit; the PSP pays each card leg back between the
 * phases under `<key>/<legId>`, so a retry or the reconciler asks again under the same key and
 * the PSP answers its first refund instead of paying twice; the close write records every share
 * on its leg (instrument, leg row, ledger entry) under the same key, once: a share whose key is
 * already done is skipped. The airline's own instruments (voucher, settlement, loyalty) need no
 * PSP: they are given back in the close write itself.
 */
export class RefundPayments {
  constructor(
    private readonly psp: PspSimulator,
    private readonly clearance?: ClearanceDesk,
  ) {}

  /** Between the phases: each card share at the PSP under its key. */
  async pay(db: StoreDb, plan: readonly RefundShare[], key: string): Promise<void> {
    for (const share of plan) {
      const leg = await loadLeg(db, share.legId);
      if (leg.kind !== "card") continue;
      const k = refundKey(key, share.legId);
      const rec = await readKey(db, k, "refund", fingerprint({ step: "refund", legId: share.legId, amount: share.amount }));
      if (rec?.state === "done") continue;
      let out;
      try {
        out = await this.psp.refund({ idempotencyKey: k, pspReference: leg.pspReference!, amount: share.amount });
      } catch (e) {
        if (e instanceof PspTimeoutError) throw new GatewayError("psp_unavailable", { detail: `Leg ${leg.legId}, refund.` });
        throw e;
      }
      if (out.status === "refused") throw new GatewayError("payment_leg_state_invalid", { detail: `The PSP refused the refund of leg ${leg.legId}.` });
    }
  }

  /** In the close write: every share on its leg, once per key. */
  async record(tx: StoreDb, plan: readonly RefundShare[], key: string, now: number): Promise<void> {
    for (const share of plan) {
      const k = refundKey(key, share.legId);
      const fp = fingerprint({ step: "refund", legId: share.legId, amount: share.amount });
      const rec = await readKey(tx, k, "refund", fp);
      if (rec?.state === "done") continue;
      const leg = await loadLeg(tx, share.legId);
      const next = await applyStep(tx, "refund", leg, checkStep("refund", leg, share.amount), k, now, this.clearance);
      await writeKey(tx, k, "refund", fp, "done", next, now);
    }
  }
}
