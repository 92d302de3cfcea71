import type { FlightAssociation } from "../model";
import { priceBundle, pricePartnerProduct, priceRide, priceService, type Flight, type PaxType, type PricedItem } from "@ndc/supply";
import type { CurrencyCode } from "@ndc/money";
import type { FlightOfferContext } from "./flight-offer";
import { serviceItemId } from "./ids";
import type { Product } from "./products";

/** One priced a-la-carte item: a product for the passengers of one type (or the party) on one flight, journey or the offer. */
export interface ListedItem {
  offerItemId: string;
  product: Product;
  paxIds: string[];
  /** The passenger type priced; undefined for per-vehicle rides and partner products. */
  paxType?: PaxType;
  flights: FlightAssociation;
  priced: PricedItem;
}

const PAX_TYPES: readonly PaxType[] = ["ADT", "CHD", "INF"];

/** Where a product is sold in the offer: the flights priced together and what the item is associated with. */
interface Placement {
  flights: Flight[];
  association: FlightAssociation;
}

function placements(ctx: FlightOfferContext, product: Product): Placement[] {
  const journeys = ctx.offer.payload.journeys.map((j) => ({ id: j.paxJourneyId, segs: ctx.segments.filter((s) => s.journey.paxJourneyId === j.paxJourneyId) }));
  const perJourney = () => journeys.map((j) => ({ flights: j.segs.map((s) => s.flight), association: { kind: "paxJourneys" as const, ids: [j.id] } }));
  switch (product.kind) {
    case "service":
      if (product.service.per === "journey") return perJourney();
      return ctx.segments.map((s) => ({ flights: [s.flight], association: { kind: "paxSegments", ids: [s.paxSegmentId] } }));
    case "bundle":
      return perJourney();
    case "ride": {
      // A ride meets a journey where it starts or ends, never at a connecting airport.
      const out: Placement[] = [];
      for (const j of journeys) {
        const first = j.segs[0];
        const last = j.segs[j.segs.length - 1];
        if (first && first.flight.origin === product.ride.airport) out.push({ flights: [first.flight], association: { kind: "paxSegments", ids: [first.paxSegmentId] } });
        if (last && last.flight.destination === product.ride.airport) out.push({ flights: [last.flight], association: { kind: "paxSegments", ids: [last.paxSegmentId] } });
      }
      return out;
    }
    case "partner_product":
      // Sold once per order, for the whole trip.
      return [{ flights: ctx.segments.map((s) => s.flight), association: { kind: "paxJourneys", ids: journeys.map((j) => j.id) } }];
  }
}

/** Passenger types that may buy the product: lap infants only what they can use without a seat. */
function buyers(product: Product): readonly (PaxType | undefined)[] {
  switch (product.kind) {
    case "service":
      return PAX_TYPES.filter((t) => t !== "INF" || product.service.infantsAllowed);
    case "bundle":
      return ["ADT", "CHD"];
    case "ride":
      return product.ride.pricedPer === "vehicle" ? [undefined] : ["ADT", "CHD"];
    case "partner_product":
      return [undefined];
  }
}

function price(seed: string | number, product: Product, p: Placement, paxType: PaxType | undefined, currency: CurrencyCode): PricedItem {
  switch (product.kind) {
    case "service":
      return priceService(seed, product.code, p.flights, paxType!, currency);
    case "bundle":
      return priceBundle(seed, product.code, p.flights, paxType!, currency);
    case "ride":
      return priceRide(seed, product.code, p.flights[0]!, paxType, currency);
    case "partner_product":
      return pricePartnerProduct(seed, product.code, p.flights, currency);
  }
}

/**
 * Prices every product for the offer (spec 4.7: per segment or journey and passenger). An item
 * covers all passengers of one type (its Eligibility lists them); per-vehicle rides and partner
 * products cover the whole party. Types with no passenger in the offer get no item.
 */
export function priceItems(ctx: FlightOfferContext, products: readonly Product[], seed: string | number, currency: CurrencyCode): ListedItem[] {
  const pax = ctx.offer.payload.pax;
  const items: ListedItem[] = [];
  for (const product of products) {
    for (const placement of placements(ctx, product)) {
      for (const paxType of buyers(product)) {
        const paxIds = pax.filter((p) => (paxType ? p.ptc === paxType : true)).map((p) => p.paxId);
        if (paxIds.length === 0) continue;
        const priced = price(seed, product, placement, paxType, currency);
        items.push({ offerItemId: serviceItemId(priced), product, paxIds, ...(paxType ? { paxType } : {}), flights: placement.association, priced });
      }
    }
  }
  return items;
}
