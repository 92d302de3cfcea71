import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { all, blocks } from "../shopping/shop-requests";
import { gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ } from "./helpers";
import { adjustmentsOf, minor, pricedOffer, total, type Priced } from "./adjustments-helpers";

/**
 * An order booked from an OfferPrice priced offer (OPR-...) keeps that offer's promotion
 * adjustments (SHPREV, spec 4.5 rule 3): the same Discount and Surcharge per item as OfferPriceRS
 * showed, and per order each rule once, summed, like the offer's TotalPrice. Every answer is
 * XSD-checked by the test gateway.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const PAX = [
  { id: "PAX1", surname: "HOPPER", given: "Grace" },
  { id: "PAX2", surname: "HOPPER", given: "Ada" },
];

/** OrderCreateRQ with the priced offer (AcceptSelectedQuotedOfferList), paid in full by card or held unpaid. */
async function book(p: Priced, id: string, pay = true, pax = PAX) {
  const rq = orderCreateRQ({ shopped: p, pax, legs: pay ? [{ kind: "card", token: "tok_approve_visa", amountMinor: p.totalMinor }] : [], correlationId: id, trxId: "T1" });
  const r = await t.ndc("OrderCreateRQ", rq);
  if (r.status !== 200) throw new Error(r.body);
  return r.body;
}

/** The adjustments of each item price, in item order, and of the total price. */
function adjustmentsByItem(xml: string, item: string) {
  return blocks(xml, item).map((i) => adjustmentsOf(blocks(i, "Price")[0]!));
}

describe("OrderCreateRQ with a priced offer carries its adjustments", () => {
  test("FLEX in EUR for an adult and a child: each item's Discount and Surcharge, and the order's, are the priced offer's", async () => {
    const p = await pricedOffer(t, { ptcs: ["ADT", "CHD"] });
    const body = await book(p, "ADJ-FLEX-1");
    const order = blocks(body, "Order")[0]!;
    expect(all(order, "StatusCode").at(-1)).toBe("BOOKED");

    // Per item: the OfferPrice item's rules and amounts, item for item.
    const priced = adjustmentsByItem(p.offer, "OfferItem");
    const ordered = adjustmentsByItem(order, "OrderItem");
    expect(ordered).toHaveLength(2);
    expect(ordered).toEqual(priced);
    for (const item of ordered) {
      expect([...item.discounts.keys()]).toEqual(["PR-NDC-FLEX10"]);
      // EUR 3.00 fuel surcharge per passenger.
      expect(item.surcharges).toEqual(new Map([["PR-NDC-FUEL", 300]]));
    }

    // Per order: each rule once, summed over the items, as the offer's TotalPrice shows it.
    const offerTotal = adjustmentsOf(blocks(p.offer, "TotalPrice")[0]!);
    const orderTotal = adjustmentsOf(blocks(order, "TotalPrice")[0]!);
    expect(orderTotal).toEqual(offerTotal);
    expect(orderTotal.surcharges).toEqual(new Map([["PR-NDC-FUEL", 600]]));
    expect(total(orderTotal.discounts)).toBe(ordered.reduce((s, i) => s + total(i.discounts), 0));
    expect(blocks(blocks(order, "TotalPrice")[0]!, "Surcharge")).toHaveLength(1);

    // The totals already hold them: the order costs what the priced offer cost, item for item.
    expect(minor(all(blocks(order, "TotalPrice")[0]!, "TotalAmount").at(-1))).toBe(p.totalMinor);
    const itemTotals = blocks(order, "OrderItem").map((i) => minor(all(blocks(i, "Price")[0]!, "TotalAmount").at(-1)));
    expect(itemTotals).toEqual(blocks(p.offer, "OfferItem").map((i) => minor(all(blocks(i, "Price")[0]!, "TotalAmount").at(-1))));
    expect(itemTotals.reduce((a, b) => a + b, 0)).toBe(p.totalMinor);
  });

  test("a surcharge alone (a brand without the FLEX discount) on an order held unpaid, and OrderRetrieveRQ reads them back", async () => {
    const p = await pricedOffer(t, { brand: "SAVER", ptcs: ["ADT", "ADT"] });
    const body = await book(p, "ADJ-SAVER-1", false);
    const order = blocks(body, "Order")[0]!;
    expect(all(order, "StatusCode").at(-1)).toBe("ORDWPM");
    const orderTotal = adjustmentsOf(blocks(order, "TotalPrice")[0]!);
    expect(orderTotal.discounts.size).toBe(0);
    expect(orderTotal.surcharges).toEqual(new Map([["PR-NDC-FUEL", 600]]));
    expect(blocks(order, "Discount")).toHaveLength(0);

    const read = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(body), { correlationId: "ADJ-READ-1" }));
    expect(read.status).toBe(200);
    const again = blocks(read.body, "Order")[0]!;
    expect(adjustmentsOf(blocks(again, "TotalPrice")[0]!)).toEqual(orderTotal);
    expect(adjustmentsByItem(again, "OrderItem")).toEqual(adjustmentsByItem(order, "OrderItem"));
  });
});

test("an extra priced with the flight keeps its own discount on its own item (PR-NDC-EXTRAS5)", async () => {
  const p = await pricedOffer(t, { brand: "SAVER", bag: true });
  expect(p.itemIds.some((id) => id.startsWith("SRV-"))).toBe(true);
  const body = await book(p, "ADJ-BAG-1", true, PAX.slice(0, 1));
  const order = blocks(body, "Order")[0]!;
  const ordered = adjustmentsByItem(order, "OrderItem");
  expect(ordered).toEqual(adjustmentsByItem(p.offer, "OfferItem"));
  // The flight item has the surcharge, the bag its 5% discount, neither the other's.
  expect(ordered.map((i) => [[...i.discounts.keys()], [...i.surcharges.keys()]])).toEqual([
    [[], ["PR-NDC-FUEL"]],
    [["PR-NDC-EXTRAS5"], []],
  ]);
  expect(adjustmentsOf(blocks(order, "TotalPrice")[0]!)).toEqual(adjustmentsOf(blocks(p.offer, "TotalPrice")[0]!));
  expect(minor(all(blocks(order, "TotalPrice")[0]!, "TotalAmount").at(-1))).toBe(p.totalMinor);
});
