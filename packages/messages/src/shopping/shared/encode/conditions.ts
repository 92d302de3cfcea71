import { c, cOpt, type XNode } from "@ndc/xml";
import type { FareConditionsView } from "../view/common";
import { amount } from "./price";

/**
 * The four fare conditions (SHPOR1) in 24.4 terms: cancellable and refundable on
 * CancelRestrictions (Refund LevelTypeCode Full or None), changeable and renameable as
 * ChangeRestrictions of ChangeTypeCode Flight and Name. Texts are composed, so English.
 */
export function conditions(f: FareConditionsView | undefined): XNode[] {
  if (!f) return [];
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
