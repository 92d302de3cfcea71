import { c, cOpt, shared, type XNode } from "@ndc/xml";
import type { FareConditionsView } from "../view/common";
import { amount } from "./price";

/**
 * The four fare conditions (SHPOR1) in 24.4 terms: cancellable and refundable on
 * CancelRestrictions (Refund LevelTypeCode Full or None), changeable and renameable as
 * ChangeRestrictions of ChangeTypeCode Flight and Name. Texts are composed, so English.
 */
export function conditions(f: FareConditionsView | undefined): XNode[] {
  if (!f) return [];
  // A brand's conditions recur on every item of every offer in it: built and written once.
  const key = `${f.cancellable}|${f.refundable}|${f.changeable}|${f.renameable}|${money(f.cancelFee)}|${money(f.changeFee)}|${money(f.feeRange?.min)}|${money(f.feeRange?.max)}|${f.feeText ?? ""}`;
  let nodes = memo.get(key);
  if (!nodes) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(key, (nodes = conditionNodes(f).map(shared)));
  }
  return nodes;
}

/** Few distinct condition sets exist (brands x fees); the bound only guards against odd fee amounts. */
const MEMO_MAX = 256;
const memo = new Map<string, XNode[]>();
const money = (m: FareConditionsView["cancelFee"]) => (m ? `${m.minor} ${m.currency} ${m.decimals}` : "");

/** ChangeOrCancelFeeType: the fee now, what it depends on, the table's highest and lowest. */
function fee(m: FareConditionsView["changeFee"], f: FareConditionsView): XNode | null {
  if (!m) return null;
  return c("Fee", amount("Amount", m), cOpt("DescText", f.feeText), f.feeRange ? amount("MaximumAmount", f.feeRange.max) : null, f.feeRange ? amount("MinimumAmount", f.feeRange.min) : null);
}

function conditionNodes(f: FareConditionsView): XNode[] {
  return [
    c(
      "CancelRestrictions",
      c("AllowedModificationInd", String(f.cancellable)),
      c("DescText", f.cancellable ? (f.refundable ? "Cancellable with refund." : "Cancellable without refund.") : "Not cancellable."),
      fee(f.cancelFee, f),
      c("Refund", c("LevelTypeCode", f.refundable ? "Full" : "None")),
    ),
    c(
      "ChangeRestrictions",
      c("AllowedModificationInd", String(f.changeable)),
      c("ChangeTypeCode", "Flight"),
      c("DescText", f.changeable ? "Flight changes allowed." : "Flight changes not allowed."),
      fee(f.changeFee, f),
    ),
    c(
      "ChangeRestrictions",
      c("AllowedModificationInd", String(f.renameable)),
      c("ChangeTypeCode", "Name"),
      cOpt("DescText", f.renameable ? "Name changes allowed." : "Name changes not allowed."),
    ),
  ];
}
