import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { WebShopChannel } from "@ndc/inventory";
import type { TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { gateway } from "../orders-http/helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { addRQ, seatsFor } from "./add-helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";

/**
 * Issue 9 item 2 for a seat booked together with other passengers' seats (one hold at
 * OrderCreate): OrderChangeRQ changes that passenger's seat alone. In the change's commit write
 * the seat actor sells the new seat, releases the old one and keeps the others sold under a hold
 * of their own, in one decision. Answers XSD-checked by t.ndc.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

async function liveRows(flightKey: string, seatId: string): Promise<{ holder: string; status: string }[]> {
  return t.gw.store.db.all(sql`SELECT holder, status FROM seat_inventory WHERE flight_key = ${flightKey} AND seat_id = ${seatId} AND status IN ('held', 'sold')`);
}

test("one passenger's seat of a shared booking changed: the new seat sold and the old one freed in the commit write, the other passenger's seat untouched", async () => {
  const { orderId, order } = await bookCancellable(t, "SS1", { pax: 2 });
  expect(order.seatHolds).toHaveLength(1);
  const mine = order.items.find((i) => i.kind === "seat" && i.paxIds[0] === "PAX1")!;
  const theirs = order.items.find((i) => i.kind === "seat" && i.paxIds[0] === "PAX2")!;
  const flightKey = mine.flightKeys![0]!;
  const map = await seatsFor(t, orderId);
  const [seatId, item] = [...map.seats].find(([s, i]) => i.unitMinor > 0 && s !== mine.ref && s !== theirs.ref)!;

  const w = await count(t.gw.store, t.gw.orders.ctx.payments.psp, () =>
    t.ndc("OrderChangeRQ", addRQ(orderId, map.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { correlationId: "SS1-change" })),
  );
  expect(w.result.status).toBe(200);
  // The saga's three writes (open, commit, close), as for a seat held alone.
  expect(w.gateway).toBe(3);
  expect(await liveRows(flightKey, seatId)).toEqual([{ holder: orderId, status: "sold" }]);
  expect(await liveRows(flightKey, mine.ref!)).toEqual([]);
  expect(await liveRows(flightKey, theirs.ref!)).toEqual([{ holder: orderId, status: "sold" }]);

  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const seats = after.items.filter((i) => i.kind === "seat");
  expect(seats.map((i) => [i.paxIds[0], i.ref]).sort()).toEqual([["PAX1", seatId], ["PAX2", theirs.ref]]);
  expect(after.seatHolds.flatMap((h) => h.seatIds).sort()).toEqual([seatId, theirs.ref!].sort());
  expect(after.seatHolds.some((h) => h.holdId === order.seatHolds[0]!.holdId)).toBe(false);

  // Every channel sees it: the web shop buys the freed seat, never the kept one.
  const shop = new WebShopChannel(t.gw.orders.ctx.inventory);
  await expect(shop.sellSeat(flightKey, theirs.ref!)).rejects.toMatchObject({ code: "seat_unavailable" });
  expect((await shop.sellSeat(flightKey, mine.ref!)).status).toBe("sold");

  // OrderHistoryRS lists the change.
  const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
  // Its Old and New are the whole order before and after (decision 0022): New has exactly the new seat item more.
  const addedOp = blocks(h.body, "ChangeOperation").find((b) => b.includes("ITEMS_ADDED"))!;
  const before = new Set(all(blocks(addedOp, "Old")[0]!, "opt:OrderItemID"));
  expect(all(blocks(addedOp, "New")[0]!, "opt:OrderItemID").filter((id) => !before.has(id))).toHaveLength(1);

  // The same request again: the same change, nothing moves.
  const again = await t.ndc("OrderChangeRQ", addRQ(orderId, map.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { correlationId: "SS1-change" }));
  expect(again.status).toBe(200);
  expect(await liveRows(flightKey, theirs.ref!)).toEqual([{ holder: orderId, status: "sold" }]);
}, 60_000);
