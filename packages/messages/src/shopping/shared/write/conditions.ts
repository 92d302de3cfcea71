import { fragmentBytes, writeKept, type ByteWriter, type KeptBytes } from "@ndc/xml";
import type { FareConditionsView } from "../view/common";
import { amount } from "./price";

// The streaming twin of ../encode/conditions.ts (same elements, order and bytes).

/** Few distinct condition sets exist (brands x fees); the bound only guards against odd fee amounts. */
const MEMO_MAX = 256;
const memo = new Map<string, Uint8Array>();
const byView = new WeakMap() as KeptBytes<FareConditionsView>;
const money = (m: FareConditionsView["cancelFee"]) => (m ? `${m.minor} ${m.currency} ${m.decimals}` : "");

/**
 * The four fare conditions (SHPOR1). A brand's conditions recur on every flight item of every
 * offer in it: written once (content-keyed, bounded) and copied as bytes.
 */
export function conditions(w: ByteWriter, f: FareConditionsView | undefined): void {
  if (!f) return;
  if (Object.isFrozen(f)) {
    // Kept with an offer's parts across requests: one lookup by identity, no key to build.
    writeKept(w, byView, f, write);
    return;
  }
  const key = `${f.cancellable}|${f.refundable}|${f.changeable}|${f.renameable}|${money(f.cancelFee)}|${money(f.changeFee)}|${money(f.feeRange?.min)}|${money(f.feeRange?.max)}|${f.feeText ?? ""}`;
  let bytes = memo.get(key);
  if (bytes === undefined) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(key, (bytes = fragmentBytes((x) => write(x, f))));
  }
  w.raw(bytes);
}

function fee(w: ByteWriter, m: FareConditionsView["changeFee"], f: FareConditionsView): void {
  if (!m) return;
  w.start("cns:Fee");
  amount(w, "cns:Amount", m);
  w.opt("cns:DescText", f.feeText);
  if (f.feeRange) {
    amount(w, "cns:MaximumAmount", f.feeRange.max);
    amount(w, "cns:MinimumAmount", f.feeRange.min);
  }
  w.end("cns:Fee");
}

function write(w: ByteWriter, f: FareConditionsView): void {
  w.start("cns:CancelRestrictions");
  w.leaf("cns:AllowedModificationInd", String(f.cancellable));
  w.leaf("cns:DescText", f.cancellable ? (f.refundable ? "Cancellable with refund." : "Cancellable without refund.") : "Not cancellable.");
  fee(w, f.cancelFee, f);
  w.start("cns:Refund");
  w.leaf("cns:LevelTypeCode", f.refundable ? "Full" : "None");
  w.end("cns:Refund");
  w.end("cns:CancelRestrictions");

  w.start("cns:ChangeRestrictions");
  w.leaf("cns:AllowedModificationInd", String(f.changeable));
  w.leaf("cns:ChangeTypeCode", "Flight");
  w.leaf("cns:DescText", f.changeable ? "Flight changes allowed." : "Flight changes not allowed.");
  fee(w, f.changeFee, f);
  w.end("cns:ChangeRestrictions");

  w.start("cns:ChangeRestrictions");
  w.leaf("cns:AllowedModificationInd", String(f.renameable));
  w.leaf("cns:ChangeTypeCode", "Name");
  w.leaf("cns:DescText", f.renameable ? "Name changes allowed." : "Name changes not allowed.");
  w.end("cns:ChangeRestrictions");
}
