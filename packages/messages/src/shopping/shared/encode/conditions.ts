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
  const key = `${f.cancellable}|${f.refundable}|${f.changeable}|${f.renameable}|${money(f.cancelFee)}|${money(f.changeFee)}`;
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

function conditionNodes(f: FareConditionsView): XNode[] {
  return [
    c(
      "CancelRestrictions",
      c("AllowedModificationInd", String(f.cancellable)),
      c("DescText", f.cancellable ? (f.refundable ? "Cancellable with refund." : "Cancellable without refund.") : "Not cancellable."),
      f.cancelFee ? c("Fee", amount("Amount", f.cancelFee)) : null,
      c("Refund", c("LevelTypeCode", f.refundable ? "Full" : "None")),
    ),
    c(
      "ChangeRestrictions",
      c("AllowedModificationInd", String(f.changeable)),
      c("ChangeTypeCode", "Flight"),
      c("DescText", f.changeable ? "Flight changes allowed." : "Flight changes not allowed."),
      f.changeFee ? c("Fee", amount("Amount", f.changeFee)) : null,
    ),
    c(
      "ChangeRestrictions",
      c("AllowedModificationInd", String(f.renameable)),
      c("ChangeTypeCode", "Name"),
      cOpt("DescText", f.renameable ? "Name changes allowed." : "Name changes not allowed."),
    ),
  ];
}
