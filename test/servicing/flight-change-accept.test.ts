import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { bookCancellable } from "./cancel-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";

/**
 * Accepting a flight-change quote over HTTP (decision 0016, issue 9 item 3): the `FCQ.` id named
 * in OrderChangeRQ AcceptSelectedQuotedOfferList is checked (forged, expired, stale refused with
 * the catalogue's codes); the change itself is not built, so a valid quote is refused with
 * change_not_supported and the order is left as it was. Every answer is XSD-checked by t.ndc.
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

const accept = (orderId: string, quoteId: string) => t.ndc("OrderChangeRQ", addRQ(orderId, quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: 3000 }]));

async function quoted(ref: string) {
  const { order } = await bookCancellable(t, ref, { brand: "CLASSIC" });
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: "2027-01-13" }));
  return { order, quoteId: q.offers[0]!.quoteId };
}

test("a valid quote is checked, then refused as not offered yet: nothing changes", async () => {
  const { order, quoteId } = await quoted("FA1");
  const r = await accept(order.orderId, quoteId);
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("change_not_supported");
  const after = await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" });
  expect(after!.version).toBe(order.version);
  expect(after!.journeys).toEqual(order.journeys);
  expect(after!.legs).toEqual(order.legs);
});

test("a forged id, or one given for another order, is offer_not_found", async () => {
  const { order, quoteId } = await quoted("FA2");
  const other = await quoted("FA3");
  const forged = quoteId.replace(/\.(\d+)\.(\d+)\.([^.]+)$/, (_m, due, exp, mac) => `.${Number(due) - 100}.${exp}.${mac}`);
  expect(forged).not.toBe(quoteId);
  for (const id of [forged, other.quoteId, "FCQ.x"]) {
    const r = await accept(order.orderId, id);
    expect(r.status).toBe(404);
    expect(errorCode(r.body)).toBe("offer_not_found");
  }
});

test("a quote past its 15 minutes is offer_expired; one given before the order changed is offer_expired (stale)", async () => {
  const { order, quoteId } = await quoted("FA4");
  const now = clock.now();
  try {
    clock.set(now + 15 * 60_000 + 1000);
    const late = await accept(order.orderId, quoteId);
    expect(late.status).toBe(410);
    expect(errorCode(late.body)).toBe("offer_expired");
    expect(late.body).toContain("expired");
  } finally {
    clock.set(now);
  }
  // The order changes (an extra bought): the quote's version no longer matches.
  const listed = await extrasFor(t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const bought = await t.ndc("OrderChangeRQ", addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: order.passengers[0]!.paxId }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  expect(bought.status).toBe(200);
  const stale = await accept(order.orderId, quoteId);
  expect(stale.status).toBe(410);
  expect(errorCode(stale.body)).toBe("offer_expired");
  expect(stale.body).toContain("The order changed after the flight-change quote was given");
});
