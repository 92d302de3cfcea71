import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { airShoppingRQ, day } from "./shop-requests";
import { all, blocks, gateway, seatAvailabilityRQ, serviceListRQ } from "./seat-availability-helpers";

let t: TestGateway;
let shopped: string;

beforeAll(async () => {
  ({ t } = await gateway());
  const start = t.gw.supply.startDate;
  const r = await t.ndc(
    "AirShoppingRQ",
    airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(start, 20) }, { from: "FRA", to: "LHR", date: day(start, 27) }], pax: [["P1", "ADT"], ["P2", "ADT"], ["P3", "CHD"]], criteria: [{ rfic: "C" }] }),
  );
  expect(r.status).toBe(200);
  shopped = r.body;
});
afterAll(() => t.close());

/** The OfferIDs of the flight offers (Offer elements, not the ALaCarteOffers). */
const flightOffers = (xml: string) => blocks(xml, "Offer").map((o) => all(o, "OfferID")[0]!);

test("end to end: ServiceList for a shopped offer lists the same a-la-carte offer and item ids AirShopping issued", async () => {
  const offerId = flightOffers(shopped)[0]!;
  const alc = blocks(shopped, "ALaCarteOffer")[0]!;
  const shoppedItems = all(alc, "OfferItemID");
  expect(shoppedItems.length).toBeGreaterThan(0);
  const r = await t.ndc("ServiceListRQ", serviceListRQ({ offerId, criteria: [{ rfic: "C" }] }));
  expect(r.status).toBe(200);
  const listed = blocks(r.body, "ALaCarteOffer")[0]!;
  expect(all(listed, "OfferID")[0]).toBe(all(alc, "OfferID")[0]);
  expect(all(listed, "OfferItemID").sort()).toEqual([...shoppedItems].sort());
  // The full list (rides and partner products too) contains them as well.
  const full = await t.ndc("ServiceListRQ", serviceListRQ({ offerId }));
  expect(all(full.body, "OfferItemID")).toEqual(expect.arrayContaining(shoppedItems));
  expect(all(full.body, "ServiceDefinitionID")).toEqual(expect.arrayContaining(["SD-RD-LHR-RAIL", "SD-PP-ESIM"]));
});

test("end to end: SeatAvailability for a shopped offer maps every flight with the offer's segment ids", async () => {
  const offerId = flightOffers(shopped)[0]!;
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId }));
  expect(r.status).toBe(200);
  const segs = all(r.body, "PaxSegmentID");
  expect(blocks(r.body, "SeatMap").length).toBe(segs.length);
  expect(segs.length).toBeGreaterThanOrEqual(2);
  expect(all(r.body, "PaxID").sort()).toEqual(["P1", "P2", "P3"]);
});
