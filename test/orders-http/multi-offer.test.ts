import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks } from "../shopping/shop-requests";
import { gateway, orderIdOf, orderRetrieveRQ } from "./helpers";
import { itemList, multiOrderCreateRQ, quotedList, RETURN_DATE, seatItem, serviceItems, shopOneWay, total, TRAVEL_DATE, type Chosen } from "./multi-offer-helpers";

/**
 * Several offers in one OrderCreateRQ (spec 4.4): an outbound and a separate return one-way
 * offer, booked together with an airline service (a bag), a seat (SeatAvailabilityRQ), a ride
 * (SHPMOD), a partner product (SHPAN3) and a bundle with an option chosen, paid by card. Both
 * CreateOrder forms are covered; the partner-product rules refuse over HTTP.
 */
let t: TestGateway;
let out: Chosen;
let back: Chosen;
let svcOut: Map<string, Chosen>;
let svcBack: Map<string, Chosen>;
const EMAIL_PAX = [{ id: "PAX1", surname: "HOPPER", given: "Grace", email: "grace@example.test" }];

beforeAll(async () => {
  ({ t } = await gateway());
  out = await shopOneWay(t, "LHR", "CDG", TRAVEL_DATE);
  back = await shopOneWay(t, "CDG", "LHR", RETURN_DATE);
  svcOut = await serviceItems(t, out.offerId);
  svcBack = await serviceItems(t, back.offerId);
});
afterAll(() => t.close());

const svc = (m: Map<string, Chosen>, def: string): Chosen => {
  const c = m.get(def);
  if (!c) throw new Error(`${def} not listed`);
  return c;
};

/** What every booked multi-offer order must show: each item, the bundle option, both flights. */
function expectEveryItem(xml: string, picks: Chosen[], defs: string[], seat: { seatId: string }): void {
  expect(blocks(xml, "OrderItem")).toHaveLength(picks.length);
  const refs = all(xml, "ServiceDefinitionRefID");
  for (const d of defs) expect(refs).toContain(d);
  const seatOnLeg = blocks(xml, "SeatOnLeg");
  expect(seatOnLeg).toHaveLength(1);
  expect(`${all(seatOnLeg[0]!, "RowNumber")[0]}${all(seatOnLeg[0]!, "ColumnID")[0]}`).toBe(seat.seatId);
  const segments = new Set(all(xml, "PaxSegmentRefID"));
  expect([...segments].some((s) => s.includes(TRAVEL_DATE))).toBe(true);
  expect([...segments].some((s) => s.includes(RETURN_DATE))).toBe(true);
  expect(all(xml, "TotalAmount").at(-1)).toBe((total(picks) / 100).toFixed(2));
}

describe("several offers in one OrderCreateRQ", () => {
  test("AcceptSelectedQuotedOfferList: two flight offers, a bag, a ride, a partner product, a bundle with its option and a seat, by card -> Booked; OrderViewRS shows every item", async () => {
    const seat = await seatItem(t, out.offerId);
    const bundle = { ...svc(svcOut, "SD-BNDL-COMFORT"), options: ["SD-MLVG"] };
    const picks = [out, back, svc(svcOut, "SD-BAG1"), svc(svcOut, "SD-RD-LHR-RAIL"), svc(svcOut, "SD-PP-LOUNGE-LHR"), bundle, seat];
    const r = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create: quotedList(picks), pax: EMAIL_PAX, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: total(picks) }], correlationId: "MO-QUOTED-1" }));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    const defs = ["SD-BAG1", "SD-RD-LHR-RAIL", "SD-PP-LOUNGE-LHR", "SD-BNDL-COMFORT", "SD-MLVG"];
    expectEveryItem(r.body, picks, defs, seat);
    // The option chosen is on the order, and the one not chosen is not.
    expect(r.body).toContain("Bundle option MLVG");
    expect(all(r.body, "ServiceDefinitionRefID")).not.toContain("SD-MEAL");
    expect(all(blocks(r.body, "PaymentFunctions")[0]!, "PaymentStatusCode")[0]).toBe("CAPTURED");

    const again = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(r.body), { correlationId: "MO-READ-1" }));
    expect(again.status).toBe(200);
    expectEveryItem(again.body, picks, defs, seat);
  });

  test("AcceptOrderItemList: the same kinds of items named by OfferItemRefID alone are traced to their offers -> Booked", async () => {
    const seat = await seatItem(t, back.offerId);
    const picks = [out, back, svc(svcBack, "SD-BAG1"), svc(svcBack, "SD-RD-CDG-RAIL"), svc(svcOut, "SD-PP-ESIM"), svc(svcOut, "SD-BNDL-WORK"), seat];
    const r = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create: itemList(picks), pax: EMAIL_PAX, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: total(picks) }], correlationId: "MO-ITEMS-1" }));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    expectEveryItem(r.body, picks, ["SD-BAG1", "SD-RD-CDG-RAIL", "SD-PP-ESIM", "SD-BNDL-WORK"], seat);
  });

  test("AcceptOrderItemList: an extra of a flight offer the request does not name, or an id nobody issued, is offer_item_not_found naming the CreateOrderItem", async () => {
    const notNamed = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create: itemList([out, svc(svcBack, "SD-BAG1")]), correlationId: "MO-ITEMS-2" }));
    expect(notNamed.status).toBe(400);
    expect(errorCode(notNamed.body)).toBe("offer_item_not_found");
    expect(notNamed.body).toContain("CreateOrderItem[2]/OfferItemRefID");

    const unknown = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create: itemList([out, back, { ...out, itemId: "SRV-NEVERISSUED" }]), correlationId: "MO-ITEMS-3" }));
    expect(unknown.status).toBe(400);
    expect(errorCode(unknown.body)).toBe("offer_item_not_found");
    expect(unknown.body).toContain("CreateOrderItem[3]/OfferItemRefID");
  });

  test("the same partner product twice in one order (once per flight offer) is partner_product_once_per_order, in either form", async () => {
    const twice = [out, back, svc(svcOut, "SD-PP-ESIM"), svc(svcBack, "SD-PP-ESIM")];
    expect(twice[2]!.itemId).not.toBe(twice[3]!.itemId);
    for (const [create, id] of [[quotedList(twice), "MO-PP-TWICE-1"], [itemList(twice), "MO-PP-TWICE-2"]] as const) {
      const r = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create, pax: EMAIL_PAX, correlationId: id }));
      expect(r.status).toBe(409);
      expect(errorCode(r.body)).toBe("partner_product_once_per_order");
    }
  });

  test("a partner product without a contact email is partner_product_needs_email, in either form", async () => {
    const picks = [out, svc(svcOut, "SD-PP-INSURANCE")];
    for (const [create, id] of [[quotedList(picks), "MO-PP-MAIL-1"], [itemList(picks), "MO-PP-MAIL-2"]] as const) {
      const r = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create, correlationId: id }));
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe("partner_product_needs_email");
    }
  });

  test("SelectedBundleServices: a choice that is not an option of the bundle, or two of one option group, is refused", async () => {
    const comfort = svc(svcOut, "SD-BNDL-COMFORT");
    for (const [options, id] of [[["SD-BAG1"], "MO-BND-1"], [["SD-MEAL", "SD-MLVG"], "MO-BND-2"], [["SD-NOPE"], "MO-BND-3"]] as const) {
      const r = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create: quotedList([out, { ...comfort, options: [...options] }]), correlationId: id }));
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe("request_invalid");
      expect(r.body).toContain("SelectedBundleServices");
    }
    // Options on an item that is no bundle.
    const bag = await t.ndc("OrderCreateRQ", multiOrderCreateRQ({ create: quotedList([out, { ...svc(svcOut, "SD-BAG1"), options: ["SD-MEAL"] }]), correlationId: "MO-BND-4" }));
    expect(errorCode(bag.body)).toBe("request_invalid");
  });
});
