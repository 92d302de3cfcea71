import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { ALaCartePayload, OfferOwner, OfferRepository } from "@ndc/shopping";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks, day, gateway, saveFlightOffer, seatAvailabilityRQ } from "./seat-availability-helpers";

let t: TestGateway;
let clock: ManualClock;
let owner: OfferOwner;
let repo: OfferRepository;

beforeAll(async () => {
  ({ t, clock, owner, repo } = await gateway());
});
afterAll(() => t.close());

/** A one-stop journey (two flights) out and a direct one back: three seat maps. */
async function connectingOffer(offerId: string, extra: Partial<Parameters<typeof saveFlightOffer>[3]> = {}) {
  const out = t.gw.supply.journeys("AMS", "LHR", day(t, 12)).find((j) => j.segments.length === 2)!;
  const back = t.gw.supply.journeys("LHR", "CDG", day(t, 19))[0]!;
  return saveFlightOffer(repo, clock, owner, { offerId, journeys: [out, back], pax: [["PAX1", "ADT"], ["PAX2", "CHD"], ["PAX3", "INF"]], ...extra });
}

/** Seats of a seat map as { id: "12A", status, itemIds }. */
function seats(seatMap: string): { id: string; status: string; items: string[]; chars: string[] }[] {
  return blocks(seatMap, "Seat").map((s) => ({
    id: `${all(s, "RowNumber")[0]}${all(s, "ColumnID")[0]}`,
    status: all(s, "OccupationStatusCode")[0]!,
    items: all(s, "OfferItemRefID"),
    chars: all(s, "SeatCharacteristicCode"),
  }));
}

/** OfferItemID -> TotalAmount and currency of the ALaCarteOffer. */
function prices(xml: string): Map<string, { amount: string; cur: string }> {
  const map = new Map<string, { amount: string; cur: string }>();
  for (const item of blocks(xml, "OfferItem")) {
    const m = /<cns:TotalAmount CurCode="([A-Z]{3})">([^<]+)</.exec(item)!;
    map.set(all(item, "OfferItemID")[0]!, { amount: m[2]!, cur: m[1]! });
  }
  return map;
}

test("an offer's seat map covers every flight of every journey, with the offer's segment ids", async () => {
  const offer = await connectingOffer("OFR-SEATS-1");
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-1" }));
  expect(r.status).toBe(200);
  const maps = blocks(r.body, "SeatMap");
  const segIds = offer.journeys.flatMap((j) => j.paxSegmentIds);
  expect(segIds.length).toBe(3);
  expect(maps.map((m) => m.match(/<cns:PaxSegmentRefID>([^<]+)<\/cns:PaxSegmentRefID>\s*<\/cns:SeatMap>/)![1])).toEqual(segIds);
  // The flights are described once in DataLists, carrier and aircraft names untranslated.
  expect(all(r.body, "PaxSegmentID")).toEqual(segIds);
  expect(all(r.body, "PaxID")).toEqual(["PAX1", "PAX2", "PAX3"]);
});

test("per-seat availability and price: occupied seats sell nothing, free seats are items at zero, priced seats at the supply's price", async () => {
  await connectingOffer("OFR-SEATS-2");
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-2" }));
  const price = prices(r.body);
  const firstFlight = (await repo.resolve<{ journeys: { flightKeys: string[] }[] }>("OFR-SEATS-2", owner)).payload.journeys[0]!.flightKeys[0]!;
  const supplyMap = t.gw.supply.seatMap(firstFlight, "EUR")!;
  const supplySeats = new Map(supplyMap.cabins.flatMap((c) => c.seats).map((s) => [s.id, s]));
  const mapSeats = seats(blocks(r.body, "SeatMap")[0]!);
  expect(mapSeats.length).toBe(supplySeats.size);
  let free = 0;
  let paid = 0;
  for (const s of mapSeats) {
    const src = supplySeats.get(s.id)!;
    if (src.availability === "occupied") {
      expect(s.status).toBe("O");
      expect(s.items).toEqual([]);
    } else if (src.cabin === "BUSINESS") {
      // Economy fare: business seats are shown but not sold with it.
      expect(s.status).toBe("Z");
      expect(s.items).toEqual([]);
    } else {
      expect(s.status).toBe("F");
      expect(s.items).toEqual([supplyMap.seatItemIds[s.id]!]);
      const p = price.get(s.items[0]!)!;
      expect(p.cur).toBe("EUR");
      expect(p.amount).toBe((src.price.amount / 100).toFixed(2));
      if (src.price.amount === 0) {
        free++;
        expect(s.chars).not.toContain("CH");
      } else {
        paid++;
        expect(s.chars).toContain("CH");
      }
    }
  }
  expect(free).toBeGreaterThan(0);
  expect(paid).toBeGreaterThan(0);
  expect(mapSeats.some((s) => s.status === "O")).toBe(true);
  // Lap infants have no seat: the items are for the adult and the child only.
  const elig = blocks(blocks(r.body, "OfferItem")[0]!, "Eligibility")[0]!;
  expect(all(elig, "PaxRefID")).toEqual(["PAX1", "PAX2"]);
});

test("the seats for sale are stored as an a-la-carte offer tied to the flight offer, orderable later", async () => {
  await connectingOffer("OFR-SEATS-3");
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-3" }));
  const alc = all(blocks(r.body, "ALaCarteOffer")[0]!, "OfferID")[0]!;
  const stored = await repo.resolve<ALaCartePayload>(alc, owner);
  expect(stored.source).toBe("seat_availability");
  expect(stored.payload.flightOfferId).toBe("OFR-SEATS-3");
  expect(stored.payload.items.map((i) => i.offerItemId).sort()).toEqual([...prices(r.body).keys()].sort());
  expect(stored.payload.items.every((i) => i.kind === "seat" && Number.isInteger(i.totalMinor))).toBe(true);
  const again = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-3" }));
  expect(again.body).toBe(r.body);
});

test("prices in the requested currency, exact to its minor unit", async () => {
  await connectingOffer("OFR-SEATS-4");
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-4", currency: "JPY" }));
  expect(r.status).toBe(200);
  expect(blocks(r.body, "Processing")[0]).toContain("<cns:CurCode>JPY</cns:CurCode><cns:DecimalsAllowedNumber>0</cns:DecimalsAllowedNumber>");
  const amounts = [...prices(r.body).values()];
  expect(amounts.every((p) => p.cur === "JPY" && /^\d+$/.test(p.amount))).toBe(true);
  // 10.00 EUR = 1623.5 JPY -> 1624 JPY (half away from zero), as the supply converts.
  expect(amounts.some((p) => p.amount === "1624")).toBe(true);
  const bad = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-4", currency: "XXX" }));
  expect(bad.status).toBe(400);
  expect(errorCode(bad.body)).toBe("currency_not_supported");
});

test("OfferItem PaxSegmentRefID narrows the maps to those flights", async () => {
  const offer = await connectingOffer("OFR-SEATS-5");
  const seg = offer.journeys[1]!.paxSegmentIds[0]!;
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-5", paxSegmentIds: [seg] }));
  expect(blocks(r.body, "SeatMap").length).toBe(1);
  expect(all(r.body, "PaxSegmentID")).toEqual([seg]);
  const bad = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-5", paxSegmentIds: ["SEG-NOPE"] }));
  expect(bad.status).toBe(400);
  expect(errorCode(bad.body)).toBe("request_invalid");
});

test("a business-cabin offer sells business seats (free) and blocks economy", async () => {
  const j = t.gw.supply.journeys("LHR", "FRA", day(t, 30))[0]!;
  await saveFlightOffer(repo, clock, owner, { offerId: "OFR-SEATS-J", journeys: [j], cabin: "BUSINESS" });
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-J" }));
  const cabins = blocks(r.body, "CabinCompartment");
  expect(all(cabins[0]!, "CabinTypeCode")).toEqual(["C"]);
  expect(seats(cabins[0]!).filter((s) => s.status === "F").length).toBeGreaterThan(0);
  expect(seats(cabins[1]!).every((s) => s.status !== "F")).toBe(true);
  expect([...prices(r.body).values()].every((p) => p.amount === "0.00")).toBe(true);
});

test("flight-segment form: the seat map of a named flight, priced for information", async () => {
  const f = t.gw.supply.flightsOn("LHR", "CDG", day(t, 5))[0]!;
  const datedSegments = `<cns:DatedMarketingSegmentList><cns:DatedMarketingSegment><cns:Arrival><cns:IATA_LocationCode>CDG</cns:IATA_LocationCode></cns:Arrival><cns:CarrierDesigCode>XB</cns:CarrierDesigCode><cns:DatedMarketingSegmentId>MS1</cns:DatedMarketingSegmentId><cns:DatedOperatingSegmentRefId>OS1</cns:DatedOperatingSegmentRefId><cns:Dep><cns:AircraftScheduledDateTime>${f.departure.local}:00</cns:AircraftScheduledDateTime><cns:IATA_LocationCode>LHR</cns:IATA_LocationCode></cns:Dep><cns:MarketingCarrierFlightNumberText>${f.marketing.number}</cns:MarketingCarrierFlightNumberText></cns:DatedMarketingSegment></cns:DatedMarketingSegmentList>`;
  const rawCore = `<cns:PaxSegmentRequest><cns:PaxSegment><cns:DatedMarketingSegmentRefId>MS1</cns:DatedMarketingSegmentRefId><cns:PaxSegmentID>S1</cns:PaxSegmentID></cns:PaxSegment></cns:PaxSegmentRequest>`;
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ datedSegments, rawCore, currency: "GBP" }));
  expect(r.status).toBe(200);
  expect(blocks(r.body, "SeatMap").length).toBe(1);
  expect(all(r.body, "PaxSegmentID")).toEqual(["S1"]);
  expect(all(r.body, "MarketingCarrierFlightNumberText")).toEqual([String(f.marketing.number)]);
  expect([...prices(r.body).values()].every((p) => p.cur === "GBP")).toBe(true);
  // No flight offer: the prices are for information, not a stored offer.
  const alc = all(blocks(r.body, "ALaCarteOffer")[0]!, "OfferID")[0]!;
  expect(errorCode((await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: alc }))).body)).toBe("offer_not_found");

  const none = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ datedSegments: datedSegments.replace(`>${f.marketing.number}<`, ">4711<"), rawCore }));
  expect(none.status).toBe(404);
  expect(errorCode(none.body)).toBe("flight_not_found");
});

test("unknown, expired and another seller's offers are refused; another seller's looks missing", async () => {
  const unknown = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-NOPE", correlationId: "C-1" }));
  expect(unknown.status).toBe(404);
  expect(errorCode(unknown.body)).toBe("offer_not_found");

  await connectingOffer("OFR-OTHER", { owner: { clientId: "someone-else", agencyId: "OTHER-AGENCY" } });
  const other = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-OTHER", correlationId: "C-1" }));
  expect(other.status).toBe(404);
  expect(other.body.replace("OFR-OTHER", "OFR-NOPE")).toBe(unknown.body);

  const wrongOwner = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SEATS-1", ownerCode: "ZZ" }));
  expect(errorCode(wrongOwner.body)).toBe("offer_not_found");

  await connectingOffer("OFR-SHORT", { ttlMs: 1_000 });
  clock.advance(1_000);
  const expired = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-SHORT" }));
  expect(expired.status).toBe(410);
  expect(errorCode(expired.body)).toBe("offer_expired");
});

test("the booked-order form answers an order that does not exist with order_not_found", async () => {
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ orderId: "ORD-1" }));
  expect(r.status).toBe(404);
  expect(errorCode(r.body)).toBe("order_not_found");
});
