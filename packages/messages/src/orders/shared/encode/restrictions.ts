import { c, type XNode } from "@ndc/xml";
import { amount } from "../../../shopping/shared/encode/price";
import type { RestrictionsView } from "../view/order";

/**
 * CancelRestrictions then ChangeRestrictions (Flight, then Name) of an ordered item, one set per
 * passenger (PaxRefID), children in CancelRestrictionsType / ChangeRestrictionsType order.
 */
export function restrictions(r: RestrictionsView | undefined): XNode[] {
  if (!r) return [];
  const cancel = r.paxIds.map((pax) =>
    c("CancelRestrictions", c("AllowedModificationInd", String(r.cancel.allowed)), c("DescText", r.cancel.text), c("PaxRefID", pax), c("Refund", c("LevelTypeCode", r.cancel.refundable ? "Full" : "None"))),
  );
  const change = r.paxIds.flatMap((pax) => [
    c(
      "ChangeRestrictions",
      c("AllowedModificationInd", String(r.change.allowed)),
      c("ChangeTypeCode", "Flight"),
      c("DescText", r.change.text),
      r.change.fee ? c("Fee", amount("Amount", r.change.fee)) : null,
      c("PaxRefID", pax),
    ),
    c("ChangeRestrictions", c("AllowedModificationInd", String(r.name.allowed)), c("ChangeTypeCode", "Name"), c("DescText", r.name.text), c("PaxRefID", pax)),
  ]);
  return [...cancel, ...change];
}
