import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { seatAvailabilityRQ } from "./seat-availability-helpers";
import { airShoppingRQ, all, blocks, day, offerPriceRQ, type PriceOpts } from "./shop-requests";

/**
 * OfferPriceRQ prices each offer item once, for the passengers it was issued for (spec 4.5;
 * issue 7), by the rule OrderCreateRQ applies too (shopping offers/item-picks.ts): an item named
 * twice, a PaxRefID the item is not for or given twice, or a second passenger on a seat is
 * refused with request_invalid naming the element. Before, a repeated extra was priced once per
 * naming into a priced offer that OrderCreate would then charge.
 */
let t: TestGateway;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let flight: { offerId: string; adt: string; chd: string };
let bags: { offerId: string; adt: string; unitMinor: number };
let seat: { offerId: string; itemId: string };

beforeAll(async () => {
  t = await startTestGateway({}, clock);
  const pax: [string, string][] = [["P1", "ADT"], ["P2", "ADT"], ["P3", "CHD"]];
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: day(t.gw.supply.startDate, 30) }], pax, criteria: [{ rfisc: ["0CC"] }] }));
  expect(shop.status).toBe(200);
  const offer = blocks(shop.body, "Offer")[0]!;
  const ids = all(offer, "OfferItemID");
  flight = { offerId: all(offer, "OfferID")[0]!, adt: ids.find((i) => i.endsWith("-ADT"))!, chd: ids.find((i) => i.endsWith("-CHD"))! };
  const alc = blocks(shop.body, "ALaCarteOffer")[0]!;
  const adultBag = blocks(alc, "OfferItem").find((i) => all(i, "PaxRefID").join() === "P1,P2")!;
  bags = { offerId: all(alc, "OfferID")[0]!, adt: all(adultBag, "OfferItemID")[0]!, unitMinor: Math.round(Number(all(adultBag, "TotalAmount")[0]) * 100) };
  const sa = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: flight.offerId }));
  expect(sa.status).toBe(200);
  const seats = blocks(sa.body, "ALaCarteOffer")[0]!;
  seat = { offerId: all(seats, "OfferID")[0]!, itemId: all(blocks(seats, "OfferItem")[0]!, "OfferItemID")[0]! };
});
afterAll(() => t.close());

const SEL = "Request/PricedOffer/SelectedOfferList/SelectedOffer";
const flights = (): PriceOpts["offers"][number] => ({ offerId: flight.offerId, items: [{ id: flight.adt, pax: ["P1", "P2"] }, { id: flight.chd, pax: ["P3"] }] });

async function expectRefused(body: string, element: string): Promise<void> {
  const r = await t.ndc("OfferPriceRQ", body);
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("request_invalid");
  expect(all(r.body, "TagText")).toEqual([element]);
  expect(all(r.body, "OfferID")).toEqual([]);
}

describe("OfferPriceRQ: each offer item once, for its own passengers", () => {
  test("an extra named twice, once per passenger it already covers: request_invalid naming the second", async () => {
    const body = offerPriceRQ({ offers: [flights(), { offerId: bags.offerId, items: [{ id: bags.adt, pax: ["P1"] }, { id: bags.adt, pax: ["P2"] }] }] });
    await expectRefused(body, `${SEL}[2]/SelectedOfferItem[2]/OfferItemRefID`);
  });

  test("the same a-la-carte offer selected again with the same item: request_invalid", async () => {
    const once = { offerId: bags.offerId, items: [{ id: bags.adt, pax: ["P1", "P2"] }] };
    await expectRefused(offerPriceRQ({ offers: [flights(), once, once] }), `${SEL}[3]/SelectedOfferItem[1]/OfferItemRefID`);
  });

  test("a flight item named twice: request_invalid", async () => {
    const twice = { offerId: flight.offerId, items: [...flights().items, { id: flight.adt, pax: ["P1"] }] };
    await expectRefused(offerPriceRQ({ offers: [twice] }), `${SEL}[1]/SelectedOfferItem[3]/OfferItemRefID`);
  });

  test("a PaxRefID the item is not for (the child on the adults' bag or flight item): request_invalid naming it", async () => {
    const childOnBag = { offerId: bags.offerId, items: [{ id: bags.adt, pax: ["P1", "P3"] }] };
    await expectRefused(offerPriceRQ({ offers: [flights(), childOnBag] }), `${SEL}[2]/SelectedOfferItem[1]/PaxRefID[2]`);
    const childOnFlight = { offerId: flight.offerId, items: [{ id: flight.adt, pax: ["P3"] }, { id: flight.chd, pax: ["P3"] }] };
    await expectRefused(offerPriceRQ({ offers: [childOnFlight] }), `${SEL}[1]/SelectedOfferItem[1]/PaxRefID[1]`);
  });

  test("a passenger named twice in one item, or a second passenger on one seat: request_invalid", async () => {
    const bagTwice = { offerId: bags.offerId, items: [{ id: bags.adt, pax: ["P1", "P1"] }] };
    await expectRefused(offerPriceRQ({ offers: [flights(), bagTwice] }), `${SEL}[2]/SelectedOfferItem[1]/PaxRefID[2]`);
    const sharedSeat = { offerId: seat.offerId, items: [{ id: seat.itemId, pax: ["P1", "P2"] }] };
    await expectRefused(offerPriceRQ({ offers: [flights(), sharedSeat] }), `${SEL}[2]/SelectedOfferItem[1]/PaxRefID[2]`);
  });

  test("AcceptOrderItemList: the same CreateOrderItem twice: request_invalid naming the second", async () => {
    const items = [flight.adt, flight.chd, flight.adt].map((id) => `<cns:CreateOrderItem><cns:OfferItemRefID>${id}</cns:OfferItemRefID><cns:OwnerCode>XB</cns:OwnerCode></cns:CreateOrderItem>`).join("");
    const body = offerPriceRQ({ offers: [] }).replace(/<cns:SelectedOfferList>.*<\/cns:SelectedOfferList>/, `<cns:AcceptOrderItemList>${items}</cns:AcceptOrderItemList>`);
    await expectRefused(body, "Request/PricedOffer/AcceptOrderItemList/CreateOrderItem[3]/OfferItemRefID");
  });

  test("an extra for one of its passengers and a seat for one: priced once each; TotalPrice is the sum of the items", async () => {
    const r = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: [flights(), { offerId: bags.offerId, items: [{ id: bags.adt, pax: ["P2"] }] }, { offerId: seat.offerId, items: [{ id: seat.itemId, pax: ["P1"] }] }] }));
    expect(r.status).toBe(200);
    const priced = blocks(r.body, "PricedOffer")[0]!;
    const items = blocks(priced, "OfferItem");
    const ids = items.map((i) => all(i, "OfferItemID")[0]!);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(4);
    const minor = (x: string | undefined) => Math.round(Number(x) * 100);
    const bag = items.find((i) => i.includes(bags.adt))!;
    expect(minor(all(bag, "BaseAmount")[0])).toBe(bags.unitMinor);
    const itemTotals = items.map((i) => minor(all(blocks(i, "Price")[0]!, "TotalAmount").at(-1)));
    expect(minor(all(blocks(priced, "TotalPrice")[0]!, "TotalAmount").at(-1))).toBe(itemTotals.reduce((a, b) => a + b, 0));
  });
});
