import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { airShoppingRQ, all, blocks } from "../shopping/shop-requests";
import { serviceListRQ } from "../shopping/seat-availability-helpers";

/**
 * Issue 20 item 9 over HTTP (answers XSD-checked by t.ndc): ServiceListRS for a flight offer
 * carries the DataLists AirShoppingRS carries for the same flights: PaxSegment, PaxJourney,
 * DatedMarketingSegment, DatedOperatingSegment and Leg, Pax, OriginDest, the brand's PriceClass
 * and the BaggageAllowanceList the offer's BaggageAssociations name, with the same ids and values.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** A list's entries by id, each entry's XML as written. */
const byId = (xml: string, entry: string, id: string) => new Map(blocks(xml, entry).map((b) => [all(b, id)[0]!, b]));

test("ServiceListRS lists the offer's flights, journeys, direction, brand and baggage allowances as AirShoppingRS does", async () => {
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2027-01-12" }, { from: "CDG", to: "LHR", date: "2027-01-15" }], currency: "EUR" }));
  expect(shop.status).toBe(200);
  // An offer whose brand grants an allowance.
  const offer = blocks(shop.body, "Offer").find((o) => o.includes("<cns:BaggageAssociations>"))!;
  const offerId = all(offer, "OfferID")[0]!;
  const list = await t.ndc("ServiceListRQ", serviceListRQ({ offerId }));
  expect(list.status).toBe(200);
  const lists = blocks(list.body, "DataLists")[0]!;

  const allowances = new Set(all(blocks(offer, "BaggageAssociations").join(""), "BaggageAllowanceRefID"));
  expect(allowances.size).toBeGreaterThan(0);
  const shopAllowances = byId(shop.body, "BaggageAllowance", "BaggageAllowanceID");
  const listAllowances = byId(lists, "BaggageAllowance", "BaggageAllowanceID");
  expect([...listAllowances.keys()].sort()).toEqual([...allowances].sort());
  for (const [id, b] of listAllowances) expect(b).toBe(shopAllowances.get(id)!);

  const priceClass = all(offer, "PriceClassRefID")[0]!;
  expect([...byId(lists, "PriceClass", "PriceClassID").keys()]).toEqual([priceClass]);
  expect(byId(lists, "PriceClass", "PriceClassID").get(priceClass)).toBe(byId(shop.body, "PriceClass", "PriceClassID").get(priceClass)!);

  const journeys = all(blocks(offer, "JourneyOverview")[0]!, "PaxJourneyRefID");
  expect([...byId(lists, "PaxJourney", "PaxJourneyID").keys()]).toEqual(journeys);
  const ods = blocks(lists, "OriginDest");
  expect(ods.map((o) => `${all(o, "OriginCode")[0]}-${all(o, "DestCode")[0]}:${all(o, "PaxJourneyRefID").join(",")}`)).toEqual([`LHR-CDG:${journeys[0]}`, `CDG-LHR:${journeys[1]}`]);

  const segments = blocks(offer, "FareComponent").flatMap((fc) => all(fc, "PaxSegmentRefID"));
  expect([...byId(lists, "PaxSegment", "PaxSegmentID").keys()]).toEqual(segments);
  const shopOperating = byId(shop.body, "DatedOperatingSegment", "DatedOperatingSegmentId");
  for (const [id, b] of byId(lists, "DatedOperatingSegment", "DatedOperatingSegmentId")) expect(b).toBe(shopOperating.get(id)!);
  expect(blocks(lists, "DatedOperatingLeg").length).toBe(segments.length);
  expect(all(blocks(lists, "PaxList")[0]!, "PaxID")).toEqual(["PAX1"]);
}, 60_000);
