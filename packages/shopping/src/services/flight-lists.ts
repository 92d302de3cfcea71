import type { BaggageAllowanceView, JourneyView, OriginDestView, PaxView, PriceClassView, SegmentView } from "../model";
import { fareBrand, secureFlightApplies, type Flight } from "@ndc/supply";
import type { Localiser } from "../localisation";
import { DataListsBuilder } from "../views/data-lists";
import type { FlightOfferContext } from "./flight-offer";

/** Supply cabins as ATSB 9873 CabinTypeCode; stored offers may hold either spelling. */
const CABIN_CODES: Readonly<Record<string, string>> = { BUSINESS: "C", ECONOMY: "M", C: "C", M: "M" };
const CABIN_KEYS: Readonly<Record<string, string>> = { C: "cabin.BUSINESS", M: "cabin.ECONOMY" };

export function cabinTypeCode(cabin: string): string {
  return CABIN_CODES[cabin.toUpperCase()] ?? cabin;
}

/** The cabin's name is airline content (spec 4.8 rule 1). */
export function cabinName(code: string, lang: Localiser): string | undefined {
  const key = CABIN_KEYS[cabinTypeCode(code)];
  return key ? lang.text(key) : undefined;
}

function isoDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h ? `${h}H` : ""}${m || !h ? `${m}M` : ""}`;
}

/** A flight as the DataLists segment the seat maps and item eligibilities refer to. */
export function segmentView(paxSegmentId: string, flight: Flight, cabin: string | undefined, lang: Localiser): SegmentView {
  const own = flight.operating.carrier.code === flight.marketing.carrier.code && flight.operating.number === flight.marketing.number;
  const view: SegmentView = {
    paxSegmentId,
    origin: flight.origin,
    destination: flight.destination,
    originName: lang.text(`station.${flight.origin}`),
    destinationName: lang.text(`station.${flight.destination}`),
    departure: `${flight.departure.local}:00`.slice(0, 19),
    arrival: `${flight.arrival.local}:00`.slice(0, 19),
    // Carrier and aircraft names are proper names: never translated (spec 4.8 rule 3).
    marketing: { code: flight.marketing.carrier.code, name: flight.marketing.carrier.name, flightNumber: String(flight.marketing.number) },
    aircraft: { iataCode: flight.aircraft.code, name: flight.aircraft.name },
    duration: isoDuration(flight.durationMinutes),
    ...(secureFlightApplies(flight.origin, flight.destination) ? { secureFlight: true } : {}),
  };
  if (!own) view.operating = { code: flight.operating.carrier.code, name: flight.operating.carrier.name, flightNumber: String(flight.operating.number) };
  if (cabin) {
    const code = cabinTypeCode(cabin);
    view.cabin = { code, name: cabinName(code, lang) };
  }
  return view;
}

/** Passengers, segments and journeys of a flight offer: what items and seat maps refer to. */
export function offerFlightLists(ctx: FlightOfferContext, lang: Localiser): { passengers: PaxView[]; segments: SegmentView[]; journeys: JourneyView[] } {
  const p = ctx.offer.payload;
  return {
    passengers: p.pax.map((x) => ({ paxId: x.paxId, ptc: x.ptc })),
    segments: ctx.segments.map((s) => segmentView(s.paxSegmentId, s.flight, s.journey.cabin, lang)),
    journeys: p.journeys.map((j) => ({ paxJourneyId: j.paxJourneyId, paxSegmentIds: [...j.paxSegmentIds] })),
  };
}

/**
 * The rest of what AirShoppingRS lists for the same flights (issue 20 item 9), for ServiceListRS:
 * each direction's OriginDest, the fare brand (PriceClass) and the baggage allowances the brand
 * grants the offer's passenger types, built as AirShopping builds them (DataListsBuilder), so
 * the ids and texts are the same in both answers.
 */
export function offerFareLists(ctx: FlightOfferContext, lang: Localiser, ownerCode: string): { originDests: OriginDestView[]; priceClasses: PriceClassView[]; baggageAllowances: BaggageAllowanceView[] } {
  const p = ctx.offer.payload;
  const lists = new DataListsBuilder(lang, ownerCode);
  const ptcs = new Set(p.pax.map((x) => x.ptc));
  for (const code of new Set(p.journeys.map((j) => j.brandCode))) {
    const brand = fareBrand(code);
    if (!brand) continue;
    lists.brand(brand);
    for (const a of brand.allowance ?? []) if (a.paxTypes.some((t) => ptcs.has(t))) lists.allowance(a);
  }
  const built = lists.build();
  const originDests = p.journeys.map((j, i): OriginDestView => {
    const flights = ctx.segments.filter((s) => s.journey.paxJourneyId === j.paxJourneyId);
    return { originDestId: `OD${i + 1}`, origin: flights[0]?.flight.origin ?? "", destination: flights.at(-1)?.flight.destination ?? "", paxJourneyIds: [j.paxJourneyId] };
  });
  return { originDests: originDests.filter((o) => o.origin && o.destination), priceClasses: built.priceClasses, baggageAllowances: built.baggageAllowances };
}
