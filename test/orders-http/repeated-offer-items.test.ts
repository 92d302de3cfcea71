import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { OfferRepository, type FlightOfferPayload } from "@ndc/shopping";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks, offerPriceRQ } from "../shopping/shop-requests";
import { gateway } from "./helpers";
import {
  distinctTotal,
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
 * An offer item is booked once, for the passengers it was issued for (spec 4.4; issue 7): a
 * flight item named twice, once per passenger it already covers, or for a passenger it does not
 * cover is refused with request_invalid naming the element, in both CreateOrder forms, and no
 * payment is taken. Before, the same OrderItemID was booked twice and the card captured double
 * (a 229.00 offer for two adults became a 458.00 captured order).
 */
let t: TestGateway;
let clock: ManualClock;
let party: ShoppedParty;
let n = 0;
beforeAll(async () => {
  ({ t, clock } = await gateway());
  party = await shopParty(t, clock);
});
afterAll(() => t.close());

const Q = "Request/CreateOrder/AcceptSelectedQuotedOfferList/SelectedPricedOffer";
const L = "Request/CreateOrder/AcceptOrderItemList/CreateOrderItem";
const adult = () => party.flights[0]!;
const child = () => party.flights[1]!;
const service = (key: string) => {
  const s = party.services.get(key);
  if (!s) throw new Error(`${key} not listed`);
  return s;
};

/** Books the namings, paying what the distinct items cost unless told otherwise; returns the answer. */
async function book(create: string, namings: readonly Naming[], payMinor = distinctTotal(namings)) {
  return t.ndc("OrderCreateRQ", partyOrderCreateRQ(create, payMinor, `REPEAT-${++n}`));
}

/** Each naming's stored price counted again: what a gateway booking every naming would charge. */
const multiplied = (namings: readonly Naming[]) => namings.reduce((s, x) => s + x.item.stored.totalMinor, 0);

/** A 400 request_invalid naming `element`, and nothing authorised or captured at the PSP. */
async function expectRefused(create: string, namings: readonly Naming[], element: string, payMinor?: number): Promise<void> {
  const before = await pspPaymentCount(t);
  const r = await book(create, namings, payMinor);
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("request_invalid");
  expect(all(r.body, "TagText")).toEqual([element]);
  expect(all(r.body, "OrderID")).toEqual([]);
  expect(await pspPaymentCount(t)).toBe(before);
}

describe("OrderCreateRQ: each offer item once, for its own passengers", () => {
  test("the adults' flight item named twice (two SelectedOfferItem), paid twice: request_invalid naming the second, nothing charged", async () => {
    const namings = [
      { item: adult(), pax: ["PAX1", "PAX2"] },
      { item: child(), pax: ["PAX3"] },
      { item: adult(), pax: ["PAX1", "PAX2"] },
    ];
    // The card leg offers the multiplied amount the old code asked for (and captured).
    expect(multiplied(namings)).toBeGreaterThan(distinctTotal(namings));
    await expectRefused(quotedOffers(namings), namings, `${Q}[1]/SelectedOfferItem[3]/OfferItemRefID`, multiplied(namings));
  });

  test("one SelectedOfferItem per passenger of an item that already covers both: request_invalid", async () => {
    const namings = [
      { item: adult(), pax: ["PAX1"] },
      { item: adult(), pax: ["PAX2"] },
      { item: child(), pax: ["PAX3"] },
    ];
    await expectRefused(quotedOffers(namings), namings, `${Q}[1]/SelectedOfferItem[2]/OfferItemRefID`);
  });

  test("a PaxRefID the item is not for (the child on the adults' item, a passenger of no offer): request_invalid naming it", async () => {
    const onAdult = [
      { item: adult(), pax: ["PAX1", "PAX3"] },
      { item: child(), pax: ["PAX3"] },
    ];
    await expectRefused(quotedOffers(onAdult), onAdult, `${Q}[1]/SelectedOfferItem[1]/PaxRefID[2]`);
    const stranger = [
      { item: adult(), pax: ["PAX1", "PAX2"] },
      { item: child(), pax: ["PAX9"] },
    ];
    await expectRefused(quotedOffers(stranger), stranger, `${Q}[1]/SelectedOfferItem[2]/PaxRefID[1]`);
  });

  test("a passenger named twice in one item: request_invalid", async () => {
    const namings = [
      { item: adult(), pax: ["PAX1", "PAX2", "PAX1"] },
      { item: child(), pax: ["PAX3"] },
    ];
    await expectRefused(quotedOffers(namings), namings, `${Q}[1]/SelectedOfferItem[1]/PaxRefID[3]`);
  });

  test("AcceptOrderItemList: the same CreateOrderItem twice, flight or extra: request_invalid naming the second", async () => {
    const flight = [{ item: adult(), pax: [] }, { item: child(), pax: [] }, { item: adult(), pax: [] }];
    await expectRefused(orderItems(flight), flight, `${L}[3]/OfferItemRefID`);
    const bag = service("BAG1/ADT");
    const extra = [{ item: adult(), pax: [] }, { item: bag, pax: [] }, { item: child(), pax: [] }, { item: bag, pax: [] }];
    await expectRefused(orderItems(extra), extra, `${L}[4]/OfferItemRefID`);
  });

  test("a-la-carte: a service named twice is refused; a seat is for one passenger", async () => {
    const bag = service("BAG1/ADT");
    const twice = [{ item: adult(), pax: ["PAX1", "PAX2"] }, { item: bag, pax: ["PAX1"] }, { item: bag, pax: ["PAX2"] }];
    await expectRefused(quotedOffers(twice), twice, `${Q}[2]/SelectedOfferItem[2]/OfferItemRefID`);
    const [seat] = await freshSeats(t, clock, party.flightOfferId, 1);
    const shared = [{ item: adult(), pax: ["PAX1", "PAX2"] }, { item: seat!, pax: ["PAX1", "PAX2"] }];
    await expectRefused(quotedOffers(shared), shared, `${Q}[2]/SelectedOfferItem[1]/PaxRefID[2]`);
  });

  test("an extra kept by an OfferPrice priced offer and named again from its a-la-carte offer is one item: request_invalid", async () => {
    const bag = service("BAG1/ADT");
    const rq = offerPriceRQ({
      offers: [
        { offerId: party.flightOfferId, items: [{ id: adult().stored.offerItemId, pax: ["PAX1", "PAX2"] }, { id: child().stored.offerItemId, pax: ["PAX3"] }] },
        { offerId: bag.offerId, items: [{ id: bag.stored.offerItemId, pax: ["PAX1"] }] },
      ],
      currency: "EUR",
    });
    const priced = await t.ndc("OfferPriceRQ", rq);
    expect(priced.status).toBe(200);
    const po = blocks(priced.body, "PricedOffer")[0]!;
    const opr = all(po, "OfferID")[0]!;
    const oprItems = await new OfferRepository(t.gw.store, clock).resolve<FlightOfferPayload>(opr, OWNER);
    // The priced offer keeps the extra's id; naming it again from the services offer is a repeat.
    expect(oprItems.payload.items.map((i) => i.offerItemId)).toContain(bag.stored.offerItemId);
    const namings = [
      ...oprItems.payload.items.map((stored) => ({ item: { offerId: opr, stored }, pax: stored.paxIds.slice(0, 1) })),
      { item: bag, pax: ["PAX1"] },
    ];
    await expectRefused(quotedOffers(namings), namings, `${Q}[2]/SelectedOfferItem[1]/OfferItemRefID`, multiplied(namings));
  });

  test("every passenger of the flight offer needs a fare: the adults' item alone (the child described) is refused, in both forms, nothing charged", async () => {
    const adultsOnly = [{ item: adult(), pax: ["PAX1", "PAX2"] }];
    // Before, this booked the child on the order's flights with no fare, for the adults' price.
    await expectRefused(quotedOffers(adultsOnly), adultsOnly, `${Q}[1]`);
    await expectRefused(orderItems([{ item: child(), pax: ["PAX3"] }]), [{ item: child(), pax: ["PAX3"] }], "Request/CreateOrder/AcceptOrderItemList");
  });

  test("a-la-carte items for some of their eligible passengers are booked, at their stored prices; the card captures exactly the total", async () => {
    const seats = await freshSeats(t, clock, party.flightOfferId, 2);
    const namings = [
      { item: adult(), pax: ["PAX1", "PAX2"] },
      { item: child(), pax: ["PAX3"] },
      // A seat each for the adults only, a bag for one adult, the car ride for the party.
      { item: seats[0]!, pax: ["PAX1"] },
      { item: seats[1]!, pax: ["PAX2"] },
      { item: service("BAG1/ADT"), pax: ["PAX2"] },
      { item: service("RD-LHR-CAR/-"), pax: ["PAX1"] },
    ];
    const r = await book(quotedOffers(namings), namings);
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    const ids = all(r.body, "OrderItemID");
    expect(ids).toHaveLength(namings.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(orderTotalMinor(r.body)).toBe(distinctTotal(namings));
    expect(await pspCapture(t, r.body)).toEqual({ state: "captured", authorised: distinctTotal(namings), captured: distinctTotal(namings) });
  });
});
