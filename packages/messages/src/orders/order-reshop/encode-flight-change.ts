import { c, el, type XNode } from "@ndc/xml";
import { GATEWAY_TEXT_ONLY, processing, warning } from "../../shopping/shared/encode/common";
import { amount } from "../../shopping/shared/encode/price";
import type { FlightChangeQuoteView } from "./flight-change-view";

/**
 * The Response of IATA_OrderReshopRS for a flight change (OrderReshopResponseType, schema order):
 * ChangeFees (the band's change fee, TypeCode Change; of several directions, their fees summed);
 * the Order; Processing (en: all text is the
 * gateway's, spec 4.8 rule 2); ReshopResults/ReshopOffers with
 * one Offer per alternative (per combination of several directions): the replaced items as DeleteOrderItem, the flights and the sums as
 * Desc, the expiry, the signed quote id as OfferID, and the amount due as TotalPrice (negative
 * when the change is refunded; AmountType is a decimal).
 */
export function encodeFlightChangeRS(v: FlightChangeQuoteView): XNode {
  return el(
    "Response",
    null,
    c("ChangeFees", c("DescText", v.feeText ?? "Change fee of the time-to-departure band, all passengers."), c("PenaltyID", v.penaltyId), c("Price", amount("TotalAmount", v.fee)), c("TypeCode", "Change")),
    c("Order", c("OrderID", v.orderId), c("OrderVersionNumber", v.version), c("OwnerCode", v.ownerCode), c("StatusCode", v.statusCode)),
    processing(GATEWAY_TEXT_ONLY),
    c(
      "ReshopResults",
      c(
        "ReshopOffers",
        v.offers.map((o, n) =>
          c(
            "Offer",
            v.orderItemIds.map((id, i) => c("DeleteOrderItem", c("ExistingOrderItem", c("OrderItemRefID", id)), c("OfferItemID", `FC${n + 1}-${i + 1}`))),
            o.descriptions.map((d) => c("Desc", c("DescText", d))),
            c("OfferExpirationTimeLimitDateTime", v.expiresAt),
            c("OfferID", o.quoteId),
            c("OwnerCode", v.ownerCode),
            c("PenaltyRefID", v.penaltyId),
            c("TotalPrice", amount("TotalAmount", o.due)),
          ),
        ),
      ),
    ),
    v.warnings.map(warning),
  );
}
