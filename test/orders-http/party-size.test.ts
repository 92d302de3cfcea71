import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, offerPriceRQ } from "../shopping/shop-requests";
import { seatAvailabilityRQ, serviceListRQ } from "../shopping/seat-availability-helpers";
import { gateway, orderCreateRQ, shopOffer, TRAVEL_DATE, type PaxSpec } from "./helpers";

/**
 * The party-size rule over HTTP (docs/messages/AirShoppingRQ.md): at most 9 seated passengers
 * per request, lap infants (INF) counted apart and never more than adults. AirShoppingRQ and
 * OfferPriceRQ answer shopping_criteria_invalid, OrderCreateRQ request_invalid; TagText names
 * the first passenger over the limit.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const party = (...groups: [string, number][]): [string, string][] =>
  groups.flatMap(([ptc, n]) => Array.from({ length: n }, () => ptc)).map((ptc, i) => [`PAX${i + 1}`, ptc]);
const shop = (pax: [string, string][]) => t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: TRAVEL_DATE }], pax, currency: "EUR" }));

function expectRefusal(r: { status: number; body: string }, code: string, element: string): void {
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe(code);
  expect(all(r.body, "TagText")).toEqual([element]);
}

describe("AirShoppingRQ", () => {
  test("100 adults are refused with a short answer, not a 3 MB one", async () => {
    const r = await shop(party(["ADT", 100]));
    expectRefusal(r, "shopping_criteria_invalid", "Request/PaxList/Pax[10]");
    expect(r.body.length).toBeLessThan(4_000);
  });

  test("a tenth seated passenger is refused, a child as much as an adult", async () => {
    expectRefusal(await shop(party(["ADT", 10])), "shopping_criteria_invalid", "Request/PaxList/Pax[10]");
    expectRefusal(await shop(party(["ADT", 1], ["CHD", 9])), "shopping_criteria_invalid", "Request/PaxList/Pax[10]");
  });

  test("more lap infants than adults are refused at the first infant too many", async () => {
    expectRefusal(await shop(party(["ADT", 2], ["CHD", 1], ["INF", 3])), "shopping_criteria_invalid", "Request/PaxList/Pax[6]");
  });

  test("at the limit: 9 seated passengers and 9 lap infants are shopped", async () => {
    const r = await shop(party(["ADT", 9], ["INF", 9]));
    expect(r.status).toBe(200);
    expect(blocks(r.body, "Offer").length).toBeGreaterThan(0);
    expect(all(blocks(r.body, "PaxList")[0]!, "PaxID")).toHaveLength(18);
  });
});

describe("OfferPriceRQ (its DataLists/PaxList)", () => {
  test("ten seated passengers are refused; the offer's own party is priced", async () => {
    const shopped = await shopOffer(t);
    const base = offerPriceRQ({ offers: [{ offerId: shopped.offerId, items: shopped.itemIds.map((id) => ({ id, pax: ["PAX1"] })) }], currency: "EUR" });
    const withPax = (pax: [string, string][]) =>
      base.replace("</cns:PricedOffer>", `</cns:PricedOffer><cns:DataLists><cns:PaxList>${pax.map(([id, ptc]) => `<cns:Pax><cns:PaxID>${id}</cns:PaxID><cns:PTC>${ptc}</cns:PTC></cns:Pax>`).join("")}</cns:PaxList></cns:DataLists>`);
    expectRefusal(await t.ndc("OfferPriceRQ", withPax(party(["ADT", 10]))), "shopping_criteria_invalid", "Request/DataLists/PaxList/Pax[10]");
    expectRefusal(await t.ndc("OfferPriceRQ", withPax(party(["ADT", 1], ["INF", 2]))), "shopping_criteria_invalid", "Request/DataLists/PaxList/Pax[3]");
    expect((await t.ndc("OfferPriceRQ", withPax(party(["ADT", 1])))).status).toBe(200);
  });
});

describe("OrderCreateRQ", () => {
  const paxOf = (n: number): PaxSpec[] => Array.from({ length: n }, (_, i) => ({ id: `PAX${i + 1}`, surname: `TRAVELLER${String.fromCharCode(65 + i)}` }));

  test("a tenth passenger is refused before the offer is looked at; nine are booked", async () => {
    const shopped = await shopOffer(t, { pax: 9 });
    const ten = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: paxOf(10), correlationId: "PARTY-10", trxId: "T1" }));
    expectRefusal(ten, "request_invalid", "Request/DataLists/PaxList/Pax[10]");
    const nine = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: paxOf(9), correlationId: "PARTY-9", trxId: "T1" }));
    expect(nine.status).toBe(200);
    expect(all(blocks(nine.body, "PaxList")[0]!, "PaxID")).toHaveLength(9);
  });

  test("more lap infants than adults are refused", async () => {
    const shopped = await shopOffer(t, { n: 1 });
    const rq = orderCreateRQ({ shopped, pax: paxOf(3), correlationId: "PARTY-INF", trxId: "T1" })
      .replace("<cns:PaxID>PAX2</cns:PaxID><cns:PTC>ADT</cns:PTC>", "<cns:PaxID>PAX2</cns:PaxID><cns:PTC>INF</cns:PTC>")
      .replace("<cns:PaxID>PAX3</cns:PaxID><cns:PTC>ADT</cns:PTC>", "<cns:PaxID>PAX3</cns:PaxID><cns:PTC>INF</cns:PTC>");
    expectRefusal(await t.ndc("OrderCreateRQ", rq), "request_invalid", "Request/DataLists/PaxList/Pax[3]");
  });
});

describe("SeatAvailabilityRQ and ServiceListRQ (their Request/Pax)", () => {
  // The Pax go straight under Request in both messages, before the core request.
  const withPax = (xml: string, pax: [string, string][]) =>
    xml.replace("<Request>", `<Request>${pax.map(([id, ptc]) => `<cns:Pax><cns:PaxID>${id}</cns:PaxID><cns:PTC>${ptc}</cns:PTC></cns:Pax>`).join("")}`);

  test("a party too large to shop has no seat map and no services; the offer's own party has both", async () => {
    const shopped = await shopOffer(t, { n: 2 });
    for (const [message, rq] of [
      ["SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: shopped.offerId })],
      ["ServiceListRQ", serviceListRQ({ offerId: shopped.offerId })],
    ] as const) {
      expectRefusal(await t.ndc(message, withPax(rq, party(["ADT", 10]))), "shopping_criteria_invalid", "Request/Pax[10]");
      expectRefusal(await t.ndc(message, withPax(rq, party(["ADT", 1], ["INF", 2]))), "shopping_criteria_invalid", "Request/Pax[3]");
      expect((await t.ndc(message, withPax(rq, party(["ADT", 1])))).status).toBe(200);
    }
  });
});
