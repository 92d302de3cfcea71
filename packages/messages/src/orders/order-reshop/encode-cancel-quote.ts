import { c, el, type XNode } from "@ndc/xml";
import { GATEWAY_TEXT_ONLY, processing, warning } from "../../shopping/shared/encode/common";
import { amount } from "../../shopping/shared/encode/price";
import type { CancelQuoteView } from "./cancel-quote-view";

const PENALTY_ID = "CANCEL-FEE";

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

/**
 * A refunded item (issue 20 item 7, as a flight change's AddedOfferItem): DifferentialTypeCode
 * Refund; DiffPrice what comes back (DueByAirlineAmount, 0.00 when nothing does) with the
 * penalty's share kept from it as Fee naming ChangeFees' PenaltyID; NewPrice nothing (the item
 * goes); OldPrice the item's value.
 */
function refunded(r: NonNullable<CancelQuoteView["refunds"]>[number] | undefined): XNode | null {
  if (!r) return null;
  const price = (m: CancelQuoteView["refund"]) => c("Price", amount("TotalAmount", m));
  return c(
    "PriceDifferential",
    c("DifferentialTypeCode", "Refund"),
    c("DiffPrice", c("Price", amount("DueByAirlineAmount", r.refund), r.fee.minor > 0 ? c("Fee", amount("Amount", r.fee), c("DesigText", PENALTY_ID)) : null)),
    c("NewPrice", price({ ...r.old, minor: 0 })),
    c("OldPrice", price(r.old)),
  );
}

function deleteOrderItem(v: CancelQuoteView, id: string, i: number): XNode {
  const r = v.refunds?.[i];
  return c(
    "DeleteOrderItem",
    c("ExistingOrderItem", c("OrderItemRefID", id)),
    c("OfferItemID", `${v.quoteId}-${i + 1}`),
    r && r.fee.minor > 0 ? c("PenaltyRefID", PENALTY_ID) : null,
    residual(v.residuals?.[i]) ?? refunded(r),
  );
}

/**
 * The Response of IATA_OrderReshopRS for a cancel quote (OrderReshopResponseType, in schema
 * order): ChangeFees (the penalty, TypeCode Cancellation) when one is kept; the Order; Processing
 * (en: all text is the gateway's, spec 4.8 rule 2); and
 * ReshopResults/ReshopOffers/Offer: one DeleteOrderItem per order item with its money (Refund or,
 * RespendInd, Residual), the terms as Desc, the expiry, the quote id as OfferID, and the refund
 * as TotalPrice.
 */
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
          v.orderItemIds.map((id, i) => deleteOrderItem(v, id, i)),
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
