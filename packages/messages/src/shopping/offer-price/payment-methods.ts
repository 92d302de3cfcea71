import { c, type XNode } from "@ndc/xml";
import type { OfferView } from "../shared/view/offers";
import type { PaymentMethodView } from "./view";

/**
 * OfferPriceRS PaymentFunctions (PaymentFunctionsOfferType), one per method the airline takes:
 * OfferAssociation naming the priced offer, then PaymentSupportedMethod with the way to pay in
 * PaymentMethodAddlInfo/PaymentOtherMethodAddlInfo/Remark and its PaymentTypeCode. No
 * PaymentSurcharge: no method carries one. Written once per answer, so the tree serves both
 * encoders (the streaming writer places the same node).
 */
export function paymentFunctions(offer: OfferView, methods: readonly PaymentMethodView[] | undefined): XNode[] {
  return (methods ?? []).map((m) =>
    c(
      "PaymentFunctions",
      c("OfferAssociation", c("OfferRefID", offer.offerId), c("OwnerCode", offer.ownerCode)),
      c("PaymentSupportedMethod", c("PaymentMethodAddlInfo", c("PaymentOtherMethodAddlInfo", c("Remark", c("RemarkText", m.remark)))), c("PaymentTypeCode", m.typeCode)),
    ),
  );
}
