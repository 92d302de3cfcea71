import { stableId, type BaggageAllowance } from "@ndc/supply";

/**
 * The id scheme of shopping responses (docs/messages/AirShoppingRQ.md, "Ids"). Ids are derived,
 * never counted, so the same shop answers the same ids and ServiceList, SeatAvailability and
 * OrderCreate can rebuild them from a stored offer without sharing state:
 *
 * - flight offer     OFR-<hash(seed, agency, currency, language, passengers, brand, journey ids)>
 * - its items        <offer id>-<PTC>  (so an OfferItemRefID alone names its offer)
 * - a-la-carte offer ALC-<hash(seed, flight offer id)>  (ServiceList for that offer issues the same)
 * - a-la-carte items the supply's priced item id (SRV-/BND-: seed, product, flight keys, PTC, currency)
 * - PaxSegmentID     SEG-<flight key>;  PaxJourneyID the supply's journey id (JRN-...)
 * - ServiceDefinitionID SD-<catalogue code>;  PriceClassID PC-<brand>
 */
export const ids = {
  flightOffer: (seed: string | number, parts: (string | number)[]) => stableId("OFR", seed, ...parts),
  offerItem: (offerId: string, ptc: string) => `${offerId}-${ptc}`,
  /** The offer an item id belongs to (flight items only; undefined for anything else). */
  offerOfItem: (offerItemId: string): string | undefined => /^(OFR-[0-9A-Z]+|OPR-[0-9A-Z]+)-(ADT|CHD|INF)$/.exec(offerItemId)?.[1],
  aLaCarteOffer: (seed: string | number, flightOfferId: string) => stableId("ALC", seed, flightOfferId),
  pricedOffer: (seed: string | number, parts: (string | number)[]) => stableId("OPR", seed, ...parts),
  segment: (flightKey: string) => `SEG-${flightKey}`,
  priceClass: (brand: string) => `PC-${brand}`,
  serviceDefinition: (code: string) => `SD-${code}`,
  allowance: (a: BaggageAllowance) => `BA-${a.kind.toUpperCase()}-${a.pieces}X${a.kgPerPiece}`,
  flightService: (offerItemId: string, paxId: string, journeyIndex: number) => `${offerItemId}-${paxId}-J${journeyIndex + 1}`,
};
