import {
  CATALOGUE_SERVICES,
  SERVICE_BUNDLES,
  partnerProductsFor,
  ridesAt,
  type CatalogueService,
  type Classified,
  type PartnerProduct,
  type Ride,
  type ServiceBundle,
} from "@ndc/supply";
import type { FlightOfferContext } from "./flight-offer";

/**
 * Everything ServiceList can sell with a flight offer, as one classified list the criteria
 * filter (spec 4.7, 4.8 rules 5-6). Bundles carry no node of their own: they are returned when
 * nothing is asked for by node, RFIC or RFISC, and kept by an exclusion, like any unclassified
 * product.
 */
export type Product =
  | ({ kind: "service"; code: string; service: CatalogueService } & Classified)
  | ({ kind: "bundle"; code: string; bundle: ServiceBundle } & Classified)
  | ({ kind: "ride"; code: string; ride: Ride } & Classified)
  | ({ kind: "partner_product"; code: string; product: PartnerProduct } & Classified);

/** The ServiceDefinitionID of a product: readable, stable and unique across the four kinds' codes. */
export const definitionId = (code: string): string => `SD-${code}`;

/** Airports where a ride can meet the offer: each journey's first origin and last destination. */
function rideAirports(ctx: FlightOfferContext): Set<string> {
  const airports = new Set<string>();
  for (const j of ctx.offer.payload.journeys) {
    const segs = ctx.segments.filter((s) => s.journey.paxJourneyId === j.paxJourneyId);
    if (segs.length === 0) continue;
    airports.add(segs[0]!.flight.origin);
    airports.add(segs[segs.length - 1]!.flight.destination);
  }
  return airports;
}

export function productsForOffer(ctx: FlightOfferContext): Product[] {
  const services: Product[] = CATALOGUE_SERVICES.map((s) => ({ kind: "service", code: s.code, service: s, rfic: s.rfic, rfisc: s.rfisc, taxonomyCode: s.taxonomyCode }));
  const bundles: Product[] = SERVICE_BUNDLES.map((b) => ({ kind: "bundle", code: b.code, bundle: b }));
  const rides: Product[] = [...rideAirports(ctx)].flatMap(ridesAt).map((r) => ({ kind: "ride", code: r.code, ride: r, taxonomyCode: r.taxonomyCode }));
  const airports = [...new Set(ctx.segments.flatMap((s) => [s.flight.origin, s.flight.destination]))];
  // A product released with no stock (sold out from the start) cannot be sold, so it is not listed.
  const partners: Product[] = partnerProductsFor(airports)
    .filter((p) => p.initialStock > 0)
    .map((p) => ({ kind: "partner_product", code: p.code, product: p, rfic: p.rfic, rfisc: p.rfisc, taxonomyCode: p.taxonomyCode }));
  return [...services, ...bundles, ...rides, ...partners];
}
