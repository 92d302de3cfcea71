import type { JourneyView, PaxView, SegmentView } from "@ndc/messages";
import type { Flight } from "@ndc/supply";
import type { Localiser } from "../localisation";
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
