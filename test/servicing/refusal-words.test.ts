import { afterAll, beforeAll, expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import type { OrderCommand } from "@ndc/orders";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { all } from "../orders-http/order-list-helpers";
import { acceptCancelRQ, bookCancellable, cancelItemsRQ, cancelQuoteRQ, quote } from "./cancel-helpers";
import { addRQ, extrasFor, quoteRQ } from "./add-helpers";

/**
 * Issue 21 item 3, one place per rule: "only a booked order" is decided by the transition table
 * and the order actor; the quotes and sagas that refuse earlier (before a hold or a payment is
 * taken) ask the same rule, so a seller reads the actor's own words whichever step caught it.
 * Each answer over HTTP is compared with what the order actor itself says to the same change.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** The actor's refusal of `command` on the order, as the seller would read it (the error's whole text). */
async function actorSays(orderId: string, command: OrderCommand): Promise<string> {
  const e = await t.gw.orders.ctx.orders.ask(orderId, command).then(() => undefined, (x: unknown) => x);
  if (!(e instanceof GatewayError)) throw new Error(`the actor did not refuse ${command.op}: ${String(e)}`);
  expect(e.code).toBe("order_state_invalid");
  return e.message;
}

const descOf = (body: string) => all(body, "DescText")[0];

test("a cancelled order: the add quote, the add, the cancel quote and the items quote refuse in the actor's words", async () => {
  const { orderId, order } = await bookCancellable(t, "RW1", { seat: false });
  // Listed while booked: the listing itself refuses a cancelled order (with words of its own, for a listing).
  const listed = await extrasFor(t, orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const paxId = order.passengers[0]!.paxId;
  const q = await quote(t, orderId);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).status).toBe(200);

  const adding = await actorSays(orderId, { op: "addItems", change: { items: [], legs: [], charge: { changeRef: "probe", at: 0, amountMinor: 0, orderItemIds: [] } } });
  expect(adding).toContain("The order is cancelled; only a booked order takes extras and seats.");
  const addQuote = await t.ndc("OrderQuoteRQ", quoteRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId }]));
  expect([addQuote.status, errorCode(addQuote.body), descOf(addQuote.body)]).toEqual([409, "order_state_invalid", adding]);
  const add = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  expect([add.status, errorCode(add.body), descOf(add.body)]).toEqual([409, "order_state_invalid", adding]);

  const cancelling = await actorSays(orderId, { op: "cancel", cancellation: { quoteId: "probe", at: 0, refundMinor: 0, penaltyMinor: 0 } });
  const again = await t.ndc("OrderReshopRQ", cancelQuoteRQ(orderId));
  expect([again.status, errorCode(again.body), descOf(again.body)]).toEqual([409, "order_state_invalid", cancelling]);

  const itemsGoing = await actorSays(orderId, { op: "cancelItems", change: { cancellation: { changeRef: "probe", quoteId: "probe", at: 0, items: [], refundMinor: 0 }, seats: [], partnerHoldIds: [] }, atVersion: 0 });
  const items = await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [order.items[0]!.orderItemId]));
  expect([items.status, errorCode(items.body), descOf(items.body)]).toEqual([409, "order_state_invalid", itemsGoing]);
}, 60_000); // several bookings and XSD checks on a loaded 2-core machine
