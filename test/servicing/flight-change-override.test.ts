import { afterAll, beforeAll, expect, test } from "bun:test";
import { listOverrides } from "@ndc/orders";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { blocks, all, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { dayAfter, T0 } from "../support/dates";

/**
 * SHPOR1 rule 4 on a flight change (spec 4.7; issue 9 items 6 and 10), over HTTP for the seller
 * and in process for the airline's staff (their channel, as the rename's override test):
 * - a LIGHT fare (not changeable) holding the customer's Flexibility service is quoted (the
 *   quote says so, spends nothing), refused on acceptance unless the request asks to use it
 *   (OrderChangeParameters/ReasonCode FLEXIBILITY), then changed with the Flexibility spent in
 *   the commit write, once;
 * - the airline's staff are never refused by the fare: the quote names the rule overridden, and
 *   the acceptance records it on the change (history entry, OrderHistoryRS Carrier/SalesAgentID)
 *   and in the append-only audit trail in the commit write; a seller asking the same is refused.
 * Every HTTP answer is XSD-checked by t.ndc.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const FLEXIBILITY = "<cns:OrderChangeParameters><cns:ReasonCode>FLEXIBILITY</cns:ReasonCode></cns:OrderChangeParameters>";
const get = (orderId: string) => t.gw.orders.ctx.orders.ask(orderId, { op: "get" });

test("a LIGHT fare with the customer's Flexibility: quoted, refused unless asked, changed with the Flexibility spent once", async () => {
  const { orderId } = await bookCancellable(t, "FXF-1", { brand: "LIGHT", seat: false });
  const listed = await extrasFor(t, orderId);
  const flex = listed.items.find((i) => i.serviceDefinitionId === "SD-FLEX")!;
  expect((await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: flex.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: flex.unitMinor }], { trxId: "buy-flex" }))).status).toBe(200);
  const before = (await get(orderId))!;
  const out = outboundOf(t, before);
  const q = await flightQuote(t, reshopFlightRQ(orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }));
  const offer = q.offers[0]!;
  expect(offer.desc.some((d) => d.includes("Flexibility service") && d.includes("ReasonCode FLEXIBILITY"))).toBe(true);
  expect((await get(orderId))!.flexibilityUsed).toBeUndefined();
  const due = Math.round(Number(offer.due) * 100);
  const accept = (trxId: string, asked: boolean) => {
    const rq = addRQ(orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: due }], { correlationId: `fxf-${trxId}`, trxId });
    return t.ndc("OrderChangeRQ", asked ? rq.replace("</cns:Order>", `</cns:Order>${FLEXIBILITY}`) : rq);
  };
  // Not asked: the fare refuses, the refusal says how to ask; nothing taken, nothing spent.
  const unasked = await accept("unasked", false);
  expect([unasked.status, errorCode(unasked.body)]).toEqual([409, "fare_not_changeable"]);
  expect(unasked.body).toContain("ReasonCode FLEXIBILITY");
  expect((await get(orderId))!.version).toBe(before.version);
  // Asked: changed, the Flexibility spent by this change in its commit write.
  const asked = await accept("asked", true);
  expect(asked.status).toBe(200);
  const after = (await get(orderId))!;
  expect(after.journeys[0]!.flightKeys).not.toEqual(before.journeys[0]!.flightKeys);
  const flexItem = before.items.find((i) => i.ref === "FLEX")!;
  expect(after.flexibilityUsed?.map((u) => u.orderItemId)).toEqual([flexItem.orderItemId]);
  expect(after.history.find((h) => h.kind === "flights_changed")!.changed).toContain(`flexibility:${flexItem.orderItemId}`);
  // Spent: the next change of that direction is refused by the fare again.
  const next = await t.ndc("OrderReshopRQ", reshopFlightRQ(orderId, out.itemIds, { ...out, date: dayAfter(T0, 54) }));
  expect([next.status, errorCode(next.body)]).toEqual([409, "fare_not_changeable"]);
}, 60_000);

test("the airline's staff are never refused by the fare: the override named on the quote, recorded on the change and in the audit trail, in the commit write; a seller is refused", async () => {
  const { orderId, order } = await bookCancellable(t, "FXS-1", { brand: "LIGHT", seat: false });
  const out = outboundOf(t, order);
  // The seller's machine channel: refused by the fare.
  const seller = await t.ndc("OrderReshopRQ", reshopFlightRQ(orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }));
  expect([seller.status, errorCode(seller.body)]).toEqual([409, "fare_not_changeable"]);
  // The staff's quote: the same alternatives, the rule overridden named on it.
  const ask = { orderItemIds: out.itemIds, origin: out.from, destination: out.to, date: dayAfter(T0, 53), at: "staff" };
  const { quote } = await t.gw.orders.quoteFlightChangeAsStaff(orderId, "agent-21", ask);
  expect(quote.terms.allowance).toMatchObject({ by: "override", overridden: { ruleCode: "fare_not_changeable" } });
  const alt = quote.alternatives[0]!;
  expect(alt.dueMinor).toBeGreaterThan(0);
  const overridesBefore = (await listOverrides(t.gw.store)).length;
  // A seller cannot accept the staff's quote: the fare refuses it at acceptance too.
  const bySeller = await t.ndc("OrderChangeRQ", addRQ(orderId, alt.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: alt.dueMinor }], { correlationId: "fxs-seller", trxId: "t1" }));
  expect(errorCode(bySeller.body)).toBe("fare_not_changeable");

  const changed = await t.gw.orders.changeFlightsAsStaff({ staffId: "agent-21", orderId, quoteId: alt.quoteId, correlationId: "staff-desk", trxId: "fxs-1", payment: [{ kind: "card", token: "tok_approve_visa", amount: { amount: alt.dueMinor, currency: "EUR" } }] });
  expect(changed.journeys[0]!.flightKeys).toEqual(alt.journey.segments.map((s) => s.key));
  const entry = changed.history.find((h) => h.kind === "flights_changed")!;
  expect(entry.staffId).toBe("agent-21");
  expect(entry.changed).toContain("override:fare_not_changeable");
  const rows = await listOverrides(t.gw.store);
  expect(rows.length).toBe(overridesBefore + 1);
  expect(rows.at(-1)).toMatchObject({ staffId: "agent-21", channel: "airline_staff", orderId, ruleCode: "fare_not_changeable" });
  // A retry of the staff call is the same operation: no second change, no second audit row.
  await t.gw.orders.changeFlightsAsStaff({ staffId: "agent-21", orderId, quoteId: alt.quoteId, correlationId: "staff-desk", trxId: "fxs-1", payment: [{ kind: "card", token: "tok_approve_visa", amount: { amount: alt.dueMinor, currency: "EUR" } }] });
  expect((await listOverrides(t.gw.store)).length).toBe(overridesBefore + 1);
  expect((await get(orderId))!.version).toBe(changed.version);
  // OrderHistoryRS names the carrier and the staff agent for the change.
  const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
  const group = blocks(h.body, "ChangeGroup").find((g) => g.includes("<ChangeTypeCode>FLIGHTS_CHANGED</ChangeTypeCode>"))!;
  expect(all(group, "SalesAgentID")).toEqual(["agent-21"]);
  expect(all(group, "OrgRole")).toEqual(["Carrier"]);
  expect(sellerOf(t).agencyId).not.toBe("XB");
}, 60_000);
