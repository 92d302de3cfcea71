import { writeKept, type ByteWriter, type KeptBytes } from "@ndc/xml";
import type { MediaView } from "../view/common";
import type { FareComponentView, OfferItemView, OfferServiceView, OfferView } from "../view/offers";
import { flightAssociation, leaves, richMediaFor, taxonomies } from "./common";
import { conditions } from "./conditions";
import { price } from "./price";

// The streaming twin of ../encode/offer.ts (same elements, order and bytes).

/** Bytes of frozen associations (a flight service's, kept with an offer's parts across requests). */
const keptAssociations = new WeakMap() as KeptBytes<OfferServiceView["association"]>;

const serviceAssociation = (w: ByteWriter, a: OfferServiceView["association"]) => writeKept(w, keptAssociations, a, writeServiceAssociation);

function writeServiceAssociation(w: ByteWriter, a: OfferServiceView["association"]): void {
  w.start("cns:OfferServiceAssociation");
  switch (a.kind) {
    case "journeys":
      w.start("cns:PaxJourneyRef");
      leaves(w, "cns:PaxJourneyRefID", a.paxJourneyIds);
      w.end("cns:PaxJourneyRef");
      break;
    case "serviceDefinition":
      w.start("cns:ServiceDefinitionRef");
      if (a.flights) flightAssociation(w, a.flights);
      w.leaf("cns:ServiceDefinitionRefID", a.serviceDefinitionId);
      w.end("cns:ServiceDefinitionRef");
      break;
    case "seat":
      w.start("cns:SeatAssignment");
      w.start("cns:Seat");
      w.leaf("cns:ColumnID", a.column);
      w.leaf("cns:RowNumber", a.row);
      leaves(w, "cns:SeatCharacteristicCode", a.characteristics);
      w.opt("cns:SeatProfileRefID", a.seatProfileId);
      w.end("cns:Seat");
      w.start("cns:SeatAssignmentAssociations");
      w.start("cns:PaxSegmentRef");
      w.leaf("cns:PaxSegmentRefID", a.paxSegmentId);
      w.end("cns:PaxSegmentRef");
      w.end("cns:SeatAssignmentAssociations");
      w.opt("cns:ServiceDefinitionRefID", a.serviceDefinitionId);
      w.end("cns:SeatAssignment");
      break;
  }
  w.end("cns:OfferServiceAssociation");
}

/** Bytes of a frozen list of passengers of a service (a flight service's, kept with an offer's parts). */
const keptPaxRefs = new WeakMap() as KeptBytes<string[]>;
const paxRefs = (w: ByteWriter, ids: string[]) => leaves(w, "cns:PaxRefID", ids);

function service(w: ByteWriter, s: OfferServiceView): void {
  w.start("cns:Service");
  taxonomies(w, s.taxonomy);
  w.opt("cns:DescText", s.description);
  serviceAssociation(w, s.association);
  writeKept(w, keptPaxRefs, s.paxIds, paxRefs);
  w.leaf("cns:ServiceID", s.serviceId);
  w.opt("cns:ServiceRefID", s.serviceRefId);
  w.end("cns:Service");
}

function fareComponent(w: ByteWriter, f: FareComponentView): void {
  w.start("cns:FareComponent");
  if (f.cabin) {
    w.start("cns:CabinType");
    w.leaf("cns:CabinTypeCode", f.cabin.code);
    w.opt("cns:CabinTypeName", f.cabin.name);
    w.end("cns:CabinType");
  }
  w.opt("cns:FareBasisCode", f.fareBasisCode);
  leaves(w, "cns:PaxSegmentRefID", f.paxSegmentIds);
  w.leaf("cns:PriceClassRefID", f.priceClassId);
  w.end("cns:FareComponent");
}

/** Bytes of frozen fares (an offer's, kept with its parts across requests). */
const keptFares = new WeakMap() as KeptBytes<NonNullable<OfferItemView["fare"]>>;

const fareDetail = (w: ByteWriter, fare: NonNullable<OfferItemView["fare"]>) => writeKept(w, keptFares, fare, writeFareDetail);

function writeFareDetail(w: ByteWriter, fare: NonNullable<OfferItemView["fare"]>): void {
  w.start("cns:FareDetail");
  for (const f of fare.components) fareComponent(w, f);
  leaves(w, "cns:PaxRefID", fare.paxIds);
  w.end("cns:FareDetail");
}

function offerItem(w: ByteWriter, i: OfferItemView, media: ReadonlyMap<string, MediaView>): void {
  if (i.services.length === 0) throw new Error(`Offer item ${i.offerItemId} has no service; 24.4 requires at least one.`);
  w.start("cns:OfferItem");
  taxonomies(w, i.taxonomy);
  conditions(w, i.conditions);
  if (i.fare) fareDetail(w, i.fare);
  if (i.mandatory !== undefined) w.leaf("cns:MandatoryInd", String(i.mandatory));
  w.leaf("cns:OfferItemID", i.offerItemId);
  w.opt("cns:OwnerCode", i.ownerCode);
  price(w, "cns:Price", i.price);
  w.opt("cns:PriceGuaranteeTimeLimitDateTime", i.priceGuaranteeUntil);
  richMediaFor(w, i.mediaIds, media);
  for (const s of i.services) service(w, s);
  w.end("cns:OfferItem");
}

/** Bytes of an offer's frozen baggage associations and journey overview (kept with its parts). */
const keptBaggage = new WeakMap() as KeptBytes<OfferView["baggage"]>;
const keptOverviews = new WeakMap() as KeptBytes<OfferView["journeys"]>;

function baggage(w: ByteWriter, bs: OfferView["baggage"]): void {
  for (const b of bs) {
    w.start("cns:BaggageAssociations");
    leaves(w, "cns:BaggageAllowanceRefID", b.baggageAllowanceIds);
    if (b.paxJourneyIds) flightAssociation(w, { kind: "paxJourneys", ids: b.paxJourneyIds });
    leaves(w, "cns:PaxRefID", b.paxIds);
    w.end("cns:BaggageAssociations");
  }
}

function journeyOverview(w: ByteWriter, js: OfferView["journeys"]): void {
  if (js.length === 0) return;
  w.start("cns:JourneyOverview");
  for (const j of js) {
    w.start("cns:JourneyPriceClass");
    w.leaf("cns:PaxJourneyRefID", j.paxJourneyId);
    w.opt("cns:PriceClassRefID", j.priceClassId);
    w.end("cns:JourneyPriceClass");
  }
  w.end("cns:JourneyOverview");
}

/** An offer (NewOfferType) under the given name: cns:Offer in AirShoppingRS, cns:PricedOffer in OfferPriceRS. */
export function offer(w: ByteWriter, name: string, o: OfferView, media: ReadonlyMap<string, MediaView>): void {
  if (o.items.length === 0) throw new Error(`Offer ${o.offerId} has no items; 24.4 requires at least one.`);
  w.start(name);
  writeKept(w, keptBaggage, o.baggage, baggage);
  writeKept(w, keptOverviews, o.journeys, journeyOverview);
  w.opt("cns:OfferExpirationTimeLimitDateTime", o.expiresAt);
  w.leaf("cns:OfferID", o.offerId);
  for (const i of o.items) offerItem(w, i, media);
  w.leaf("cns:OwnerCode", o.ownerCode);
  richMediaFor(w, o.mediaIds, media);
  if (o.totalPrice) price(w, "cns:TotalPrice", o.totalPrice);
  w.end(name);
}
