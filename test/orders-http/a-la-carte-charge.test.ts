import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { OfferRepository, type FlightOfferPayload } from "@ndc/shopping";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks, offerPriceRQ } from "../shopping/shop-requests";
import { gateway } from "./helpers";
import {
  freshSeats,
  orderItems,
  orderTotalMinor,
  OWNER,
  partyOrderCreateRQ,
  pspCapture,
  pspPaymentCount,
  quotedOffers,
  shopParty,
  type Naming,
  type ShoppedParty,
} from "./item-selection-helpers";

/**
 * An a-la-carte offer lists UNIT prices: booked directly with OrderCreateRQ (no OfferPriceRQ
 * first), an item is charged unit x units for the passengers it is booked for (those named with
 * PaxRefID; every eligible one in the CreateOrderItem form), once for a per-vehicle ride, and a
 * seat is one seat (Qty other than 1 refused, on both messages). OfferPriceRQ prices the same
 * selection the same way. Over the in-process HTTP stack, every answer checked against the XSD;
 * the expected amounts come from the unit prices the gateway stored, not from its answers.
 */
let t: TestGateway;
let clock: ManualClock;
let party: ShoppedParty;
let run = 0;
beforeAll(async () => {
  ({ t, clock } = await gateway());
  party = await shopParty(t, clock);
});
afterAll(() => t.close());

/** The order's contact: a partner product is delivered to it. */
const EMAIL = "orders@agency.example";
const flightsTotal = () => party.flights.reduce((s, f) => s + f.stored.totalMinor, 0);
const flightNamings = (): Naming[] => [
  { item: party.flights[0]!, pax: ["PAX1", "PAX2"] },
  { item: party.flights[1]!, pax: ["PAX3"] },
];
const service = (key: string) => {
  const item = party.services.get(key);
  expect(item).toBeDefined();
  return item!;
};
const unit = (key: string) => service(key).stored.unitMinor!;

/** The order item sold for a catalogue code: its price and the passengers its services are for. */
function orderItemFor(orderView: string, code: string): { totalMinor: number; pax: string[] } {
  const items = blocks(orderView, "OrderItem").filter((b) => b.includes(`SD-${code}<`));
  expect(items).toHaveLength(1);
  return { totalMinor: Math.round(Number(all(blocks(items[0]!, "Price")[0]!, "TotalAmount").at(-1)) * 100), pax: all(items[0]!, "PaxRefID") };
}

/** OrderCreateRQ paid by card for `amount`; the order must be booked at exactly that, captured at the PSP. */
async function book(create: string, amount: number): Promise<string> {
  const r = await t.ndc("OrderCreateRQ", partyOrderCreateRQ(create, amount, `ALC-CHARGE-${++run}`, EMAIL));
  expect({ status: r.status, errors: blocks(r.body, "Error") }).toEqual({ status: 200, errors: [] });
  expect(orderTotalMinor(r.body)).toBe(amount);
  expect(await pspCapture(t, r.body)).toEqual({ state: "captured", authorised: amount, captured: amount });
  return r.body;
}

describe("a direct OrderCreateRQ charges an a-la-carte item per unit", () => {
  test("BAG1 for both adults (two PaxRefIDs): 2 x unit, both on the order item", async () => {
    const bag = unit("BAG1/ADT");
    expect(bag).toBeGreaterThan(0);
    const body = await book(quotedOffers([...flightNamings(), { item: service("BAG1/ADT"), pax: ["PAX1", "PAX2"] }]), flightsTotal() + 2 * bag);
    expect(orderItemFor(body, "BAG1")).toEqual({ totalMinor: 2 * bag, pax: ["PAX1", "PAX2"] });
  });

  test("BAG1 for one adult (one PaxRefID): 1 x unit, only that passenger on the order item", async () => {
    const bag = unit("BAG1/ADT");
    const body = await book(quotedOffers([...flightNamings(), { item: service("BAG1/ADT"), pax: ["PAX2"] }]), flightsTotal() + bag);
    expect(orderItemFor(body, "BAG1")).toEqual({ totalMinor: bag, pax: ["PAX2"] });
  });

  test("BAG1 with Qty 2 for both adults: 2 bags each, 4 x unit", async () => {
    const bag = unit("BAG1/ADT");
    const body = await book(quotedOffers([...flightNamings(), { item: service("BAG1/ADT"), pax: ["PAX1", "PAX2"], qty: 2 }]), flightsTotal() + 4 * bag);
    expect(orderItemFor(body, "BAG1")).toEqual({ totalMinor: 4 * bag, pax: ["PAX1", "PAX2"] });
  });

  test("CreateOrderItem form (no PaxRefID): BAG1 for every eligible passenger, 2 x unit", async () => {
    const bag = unit("BAG1/ADT");
    const body = await book(orderItems([...flightNamings(), { item: service("BAG1/ADT"), pax: [] }]), flightsTotal() + 2 * bag);
    expect(orderItemFor(body, "BAG1")).toEqual({ totalMinor: 2 * bag, pax: ["PAX1", "PAX2"] });
  });

  test("the per-vehicle car is charged once, whoever rides in it", async () => {
    const car = service("RD-LHR-CAR/-");
    expect(car.stored.paxType).toBeUndefined();
    const body = await book(quotedOffers([...flightNamings(), { item: car, pax: ["PAX1", "PAX2", "PAX3"] }]), flightsTotal() + car.stored.unitMinor!);
    expect(orderItemFor(body, "RD-LHR-CAR")).toEqual({ totalMinor: car.stored.unitMinor!, pax: ["PAX1", "PAX2", "PAX3"] });
  });
});

test("the same selection through OfferPriceRQ then OrderCreateRQ costs what it costs booked directly (before OfferPrice's NDC promotions)", async () => {
  const bag = unit("BAG1/ADT");
  const booked = await book(quotedOffers([...flightNamings(), { item: service("BAG1/ADT"), pax: ["PAX1", "PAX2"] }]), flightsTotal() + 2 * bag);
  const direct = orderTotalMinor(booked);
  const priced = await t.ndc(
    "OfferPriceRQ",
    offerPriceRQ({ offers: [{ offerId: service("BAG1/ADT").offerId, items: [{ id: service("BAG1/ADT").stored.offerItemId, pax: ["PAX1", "PAX2"] }] }], currency: "EUR", correlationId: "ALC-CHARGE-PRICE" }),
  );
  expect({ status: priced.status, errors: blocks(priced.body, "Error") }).toEqual({ status: 200, errors: [] });
  const oprId = all(blocks(priced.body, "PricedOffer")[0]!, "OfferID")[0]!;
  const opr = (await new OfferRepository(t.gw.store, clock).resolve<FlightOfferPayload>(oprId, OWNER)).payload;
  const bagItem = opr.items.find((i) => i.ref === "BAG1")!;
  // Priced as booked directly: unit x the two adults named (its price before the promotion).
  expect({ unit: bagItem.unitMinor, pax: bagItem.paxIds }).toEqual({ unit: bag, pax: ["PAX1", "PAX2"] });
  // OfferPrice adds the NDC channel's promotions (a direct booking of an AirShopping offer has none):
  // net of them, the quote is the direct charge.
  const net = (opr.adjustments ?? []).reduce((s, a) => s + (a.effect === "discount" ? a.minor : -a.minor), 0);
  expect(opr.totalMinor + net).toBe(direct);
  const body = await book(quotedOffers(opr.items.map((stored) => ({ item: { offerId: oprId, stored }, pax: stored.paxIds }))), opr.totalMinor);
  expect(orderItemFor(body, "BAG1").pax).toEqual(["PAX1", "PAX2"]);
});

describe("a partner product is bought once for the party", () => {
  test("named for three passengers: charged its unit price once", async () => {
    const esim = service("PP-ESIM/-");
    const body = await book(quotedOffers([...flightNamings(), { item: esim, pax: ["PAX1", "PAX2", "PAX3"] }]), flightsTotal() + esim.stored.unitMinor!);
    expect(orderItemFor(body, "PP-ESIM")).toEqual({ totalMinor: esim.stored.unitMinor!, pax: ["PAX1", "PAX2", "PAX3"] });
  });

  test("Qty 2: partner_product_once_per_order, nothing charged", async () => {
    const esim = service("PP-ESIM/-");
    const before = await pspPaymentCount(t);
    const r = await t.ndc("OrderCreateRQ", partyOrderCreateRQ(quotedOffers([...flightNamings(), { item: esim, pax: ["PAX1"], qty: 2 }]), flightsTotal() + 2 * esim.stored.unitMinor!, `ALC-CHARGE-PP-${++run}`, EMAIL));
    expect({ status: r.status, code: errorCode(r.body) }).toEqual({ status: 409, code: "partner_product_once_per_order" });
    expect(await pspPaymentCount(t)).toBe(before);
  });
});

describe("a seat is one seat: Qty other than 1 refused", () => {
  test("OrderCreateRQ: request_invalid naming SelectedALaCarteOfferItem/Qty, nothing charged", async () => {
    const [seat] = await freshSeats(t, clock, party.flightOfferId, 1);
    const before = await pspPaymentCount(t);
    const create = quotedOffers([...flightNamings(), { item: seat!, pax: ["PAX1"], qty: 2 }]);
    const r = await t.ndc("OrderCreateRQ", partyOrderCreateRQ(create, flightsTotal() + 2 * seat!.stored.unitMinor!, `ALC-CHARGE-SEAT-${++run}`));
    expect({ status: r.status, code: errorCode(r.body), element: all(r.body, "TagText") }).toEqual({
      status: 400,
      code: "request_invalid",
      element: ["Request/CreateOrder/AcceptSelectedQuotedOfferList/SelectedPricedOffer[2]/SelectedOfferItem[1]/SelectedALaCarteOfferItem/Qty"],
    });
    expect(await pspPaymentCount(t)).toBe(before);
    // Qty 1 is the seat itself: booked at its price.
    await book(quotedOffers([...flightNamings(), { item: seat!, pax: ["PAX1"], qty: 1 }]), flightsTotal() + seat!.stored.unitMinor!);
  });

  test("OfferPriceRQ: request_invalid naming SelectedALaCarteOfferItem/Qty", async () => {
    const [seat] = await freshSeats(t, clock, party.flightOfferId, 1);
    const r = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: [{ offerId: seat!.offerId, items: [{ id: seat!.stored.offerItemId, pax: ["PAX1"], qty: 2 }] }], currency: "EUR", correlationId: "ALC-CHARGE-SEAT-PRICE" }));
    expect({ status: r.status, code: errorCode(r.body), element: all(r.body, "TagText") }).toEqual({
      status: 400,
      code: "request_invalid",
      element: ["Request/PricedOffer/SelectedOfferList/SelectedOffer[1]/SelectedOfferItem[1]/SelectedALaCarteOfferItem/Qty"],
    });
  });
});
