import { c, el, type XNode } from "@ndc/xml";
import { GATEWAY_TEXT_ONLY, processing, warning } from "../../shopping/shared/encode/common";
import { dataLists } from "../../shopping/shared/encode/data-lists";
import { amount, price } from "../../shopping/shared/encode/price";
import { emptyDataLists, type SegmentView } from "../../shopping/shared/view/data-lists";
import type { Money } from "../../shopping/shared/view/money";
import { deletedItemId, type AddedFlightsView } from "./flight-change-offer";
import type { FlightChangeQuoteView } from "./flight-change-view";

/**
 * AddedOfferItem (AddedOfferItemType, schema order): OfferItemID, OwnerCode, PenaltyRefID (the
 * change fee in ChangeFees), ReshopPrice/PriceDifferential (DifferentialTypeCode; DiffPrice: what
 * moves, due to or by the airline, with the change fee as Fee; NewPrice: the new fare with its
 * base and taxes; OldPrice: the replaced direction as paid), one Service per passenger on the new
 * PaxJourney.
 */
function addedOfferItem(a: AddedFlightsView, penaltyId: string, ownerCode: string): XNode {
  const { due, fee } = a;
  const moved = { ...due, minor: Math.abs(due.minor) };
  return c(
    "AddedOfferItem",
    c("OfferItemID", a.offerItemId),
    c("OwnerCode", ownerCode),
    c("PenaltyRefID", penaltyId),
    c(
      "ReshopPrice",
      c(
        "PriceDifferential",
        c("DifferentialTypeCode", a.differentialTypeCode),
        c(
          "DiffPrice",
          c(
            "Price",
            due.minor < 0 ? amount("DueByAirlineAmount", moved) : null,
            due.minor > 0 ? amount("DueToAirlineAmount", moved) : null,
            c("Fee", amount("Amount", fee), c("DesigText", penaltyId)),
          ),
        ),
        c("NewPrice", price("Price", a.newPrice)),
        c("OldPrice", c("Price", amount("TotalAmount", a.oldPrice))),
      ),
    ),
    a.services.map((s) => c("Service", c("OfferServiceAssociation", c("PaxJourneyRef", c("PaxJourneyRefID", a.paxJourney.paxJourneyId))), c("PaxRefID", s.paxId), c("ServiceID", s.serviceId))),
  );
}

/** The new journeys and flights every offer adds, once each, and the passengers their services name. */
function newFlightLists(v: FlightChangeQuoteView): XNode | null {
  const segments = new Map<string, SegmentView>();
  const journeys = new Map<string, AddedFlightsView["paxJourney"]>();
  for (const o of v.offers) {
    for (const a of o.added) {
      journeys.set(a.paxJourney.paxJourneyId, a.paxJourney);
      for (const s of a.segments) segments.set(s.paxSegmentId, s);
    }
  }
  if (journeys.size === 0) return null;
  return dataLists({ ...emptyDataLists(), passengers: v.passengers, segments: [...segments.values()], journeys: [...journeys.values()] });
}

/**
 * The Response of IATA_OrderReshopRS for a flight change (OrderReshopResponseType, schema order):
 * ChangeFees (the band's change fee, TypeCode Change; of several directions, their fees summed);
 * DataLists (the new flights and journeys, the passengers); the Order; Processing (en: all text is
 * the gateway's, spec 4.8 rule 2); ReshopResults/ReshopOffers with one Offer per alternative (per
 * combination of several directions): the new flights as AddedOfferItem, the replaced items as
 * DeleteOrderItem, the flights and the sums also as Desc, the expiry, the signed quote id as
 * OfferID, and the amount due as TotalPrice (negative when the change is refunded; AmountType is a decimal).
 */
export function encodeFlightChangeRS(v: FlightChangeQuoteView): XNode {
  return el(
    "Response",
    null,
    c("ChangeFees", c("DescText", v.feeText ?? "Change fee of the time-to-departure band, all passengers."), c("PenaltyID", v.penaltyId), c("Price", amount("TotalAmount", v.fee)), c("TypeCode", "Change")),
    newFlightLists(v),
    c("Order", c("OrderID", v.orderId), c("OrderVersionNumber", v.version), c("OwnerCode", v.ownerCode), c("StatusCode", v.statusCode)),
    processing(GATEWAY_TEXT_ONLY),
    c(
      "ReshopResults",
      c(
        "ReshopOffers",
        v.offers.map((o, n) =>
          c(
            "Offer",
            o.added.map((a) => addedOfferItem(a, v.penaltyId, v.ownerCode)),
            v.orderItemIds.map((id, i) => c("DeleteOrderItem", c("ExistingOrderItem", c("OrderItemRefID", id)), c("OfferItemID", deletedItemId(n, i)))),
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
