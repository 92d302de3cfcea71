import { c, cOpt, type XNode } from "@ndc/xml";
import type { MediaView } from "../view/common";
import type { FareComponentView, OfferItemView, OfferServiceView, OfferView } from "../view/offers";
import { flightAssociation, mediaFor, richMedia, taxonomies } from "./common";
import { conditions } from "./conditions";
import { price } from "./price";

function serviceAssociation(a: OfferServiceView["association"]): XNode {
  switch (a.kind) {
    case "journeys":
      return c("OfferServiceAssociation", c("PaxJourneyRef", a.paxJourneyIds.map((id) => c("PaxJourneyRefID", id))));
    case "serviceDefinition":
      return c(
        "OfferServiceAssociation",
        c("ServiceDefinitionRef", a.flights ? flightAssociation(a.flights) : null, c("ServiceDefinitionRefID", a.serviceDefinitionId)),
      );
    case "seat":
      return c(
        "OfferServiceAssociation",
        c(
          "SeatAssignment",
          c(
            "Seat",
            c("ColumnID", a.column),
            c("RowNumber", a.row),
            (a.characteristics ?? []).map((ch) => c("SeatCharacteristicCode", ch)),
            cOpt("SeatProfileRefID", a.seatProfileId),
          ),
          c("SeatAssignmentAssociations", c("PaxSegmentRef", c("PaxSegmentRefID", a.paxSegmentId))),
          cOpt("ServiceDefinitionRefID", a.serviceDefinitionId),
        ),
      );
  }
}

function service(s: OfferServiceView): XNode {
  return c(
    "Service",
    taxonomies(s.taxonomy),
    cOpt("DescText", s.description),
    serviceAssociation(s.association),
    s.paxIds.map((p) => c("PaxRefID", p)),
    c("ServiceID", s.serviceId),
    cOpt("ServiceRefID", s.serviceRefId),
  );
}

function fareComponent(f: FareComponentView): XNode {
  return c(
    "FareComponent",
    f.cabin ? c("CabinType", c("CabinTypeCode", f.cabin.code), cOpt("CabinTypeName", f.cabin.name)) : null,
    cOpt("FareBasisCode", f.fareBasisCode),
    f.paxSegmentIds.map((s) => c("PaxSegmentRefID", s)),
    c("PriceClassRefID", f.priceClassId),
  );
}

function offerItem(i: OfferItemView, media: ReadonlyMap<string, MediaView>): XNode {
  if (i.services.length === 0) throw new Error(`Offer item ${i.offerItemId} has no service; 24.4 requires at least one.`);
  return c(
    "OfferItem",
    taxonomies(i.taxonomy),
    conditions(i.conditions),
    i.fare ? c("FareDetail", i.fare.components.map(fareComponent), i.fare.paxIds.map((p) => c("PaxRefID", p))) : null,
    i.mandatory !== undefined ? c("MandatoryInd", String(i.mandatory)) : null,
    c("OfferItemID", i.offerItemId),
    cOpt("OwnerCode", i.ownerCode),
    price("Price", i.price),
    cOpt("PriceGuaranteeTimeLimitDateTime", i.priceGuaranteeUntil),
    mediaFor(i.mediaIds, media).map(richMedia),
    i.services.map(service),
  );
}

/** An offer (NewOfferType) under the given name: Offer in AirShoppingRS, PricedOffer in OfferPriceRS. */
export function offer(name: string, o: OfferView, media: ReadonlyMap<string, MediaView>): XNode {
  if (o.items.length === 0) throw new Error(`Offer ${o.offerId} has no items; 24.4 requires at least one.`);
  return c(
    name,
    o.baggage.map((b) =>
      c(
        "BaggageAssociations",
        b.baggageAllowanceIds.map((id) => c("BaggageAllowanceRefID", id)),
        b.paxJourneyIds ? flightAssociation({ kind: "paxJourneys", ids: b.paxJourneyIds }) : null,
        b.paxIds.map((p) => c("PaxRefID", p)),
      ),
    ),
    o.journeys.length > 0
      ? c("JourneyOverview", o.journeys.map((j) => c("JourneyPriceClass", c("PaxJourneyRefID", j.paxJourneyId), cOpt("PriceClassRefID", j.priceClassId))))
      : null,
    cOpt("OfferExpirationTimeLimitDateTime", o.expiresAt),
    c("OfferID", o.offerId),
    o.items.map((i) => offerItem(i, media)),
    c("OwnerCode", o.ownerCode),
    mediaFor(o.mediaIds, media).map(richMedia),
    o.totalPrice ? price("TotalPrice", o.totalPrice) : null,
  );
}
