import { c, el, type XNode } from "@ndc/xml";
import { GATEWAY_TEXT_ONLY, processing, warning } from "../../shopping/shared/encode/common";
import { amount } from "../../shopping/shared/encode/price";
import type { CancelQuoteView } from "./cancel-quote-view";

const PENALTY_ID = "CANCEL-FEE";

/**
 * The Response of IATA_OrderReshopRS for a cancel quote (OrderReshopResponseType, in schema
 * order): ChangeFees (the penalty, TypeCode Cancellation) when one is kept; the Order; Processing
 * (en: all text is the gateway's, spec 4.8 rule 2); and
 * ReshopResults/ReshopOffers/Offer: one DeleteOrderItem per order item, the terms as Desc, the
 * expiry, the quote id as OfferID, and the refund as TotalPrice.
 */
/**
 * RespendInd: the item's value kept by the airline for future use (24.4 DifferentialTypeCode
 * "Residual"): DiffPrice is the share retained, OldPrice the item's value, NewPrice nothing (it goes).
 */
function residual(r: NonNullable<CancelQuoteView["residuals"]>[number] | undefined): XNode | null {
  if (!r) return null;
  const price = (m: CancelQuoteView["refund"]) => c("Price", amount("TotalAmount", m));
  return c(
    "PriceDifferential",
    c("DifferentialTypeCode", "Residual"),
    c("DiffPrice", price(r.retained)),
    c("NewPrice", price({ ...r.old, minor: 0 })),
    c("OldPrice", price(r.old)),
  );
}

export function encodeCancelQuoteRS(v: CancelQuoteView): XNode {
  const penalty = v.penalty.minor > 0;
  return el(
    "Response",
    null,
    penalty
      ? c("ChangeFees", c("DescText", "Kept on cancellation."), c("PenaltyID", PENALTY_ID), c("Price", amount("TotalAmount", v.penalty)), c("TypeCode", "Cancellation"))
      : null,
    c("Order", c("OrderID", v.orderId), c("OrderVersionNumber", v.version), c("OwnerCode", v.ownerCode), c("StatusCode", v.statusCode)),
    processing(GATEWAY_TEXT_ONLY),
    c(
      "ReshopResults",
      c(
        "ReshopOffers",
        c(
          "Offer",
          v.orderItemIds.map((id, i) => c("DeleteOrderItem", c("ExistingOrderItem", c("OrderItemRefID", id)), c("OfferItemID", `${v.quoteId}-${i + 1}`), residual(v.residuals?.[i]))),
          v.descriptions.map((d) => c("Desc", c("DescText", d))),
          c("OfferExpirationTimeLimitDateTime", v.expiresAt),
          c("OfferID", v.quoteId),
          c("OwnerCode", v.ownerCode),
          penalty ? c("PenaltyRefID", PENALTY_ID) : null,
          c("TotalPrice", amount("TotalAmount", v.refund)),
        ),
      ),
    ),
    v.warnings.map(warning),
  );
}
