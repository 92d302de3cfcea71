import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { paymentRetryRQ } from "../orders-http/order-list-helpers";
import { call } from "../notifications/helpers";
import { acceptCancelRQ, quote, sellerOf } from "./cancel-helpers";
import { bookBrand, shopBrand } from "./helpers";

/**
 * A flight the airline cancelled (issue 19 item 2, docs/servicing.md#a-flight-the-airline-cancelled):
 * a held order on it is not paid (order_flight_cancelled), and a paid one is refundable in full,
 * whatever its fare, with no fee. The airline's cancellation is the sandbox control over HTTP;
 * every answer is checked against its 24.4 XSD by t.ndc.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
}, 60_000);
afterAll(() => t.close());

const key = () => t.gw.sandbox!.api_key;
const cancelFlight = (orderId: string) => call(t, "POST", `/sandbox/orders/${orderId}/schedule-change`, key(), { cancelFlight: true });
const minor = (text: string) => Math.round(Number(text) * 100);

test("a held order whose only flight the airline cancelled is not paid: 409 order_flight_cancelled, nothing authorised, still held", async () => {
  const { orderId } = await bookBrand(t, "CLASSIC", { held: true });
  const total = (await shopBrand(t, "CLASSIC")).totalText;
  expect((await cancelFlight(orderId)).status).toBe(200);
  const r = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, total, "tok_approve_visa", { correlationId: "pay-cancelled-flight" }));
  expect(r.status).toBe(409);
  expect(errorCode(r.body)).toBe("order_flight_cancelled");
  expect(r.body).toContain("<cns:TagText>PaymentFunctions</cns:TagText>");
  const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(order.state).toBe("held_unpaid");
  // Nothing was asked of the PSP: no leg authorised, captured or even planned for this attempt.
  expect(await t.gw.orders.ctx.payments.ledger.legs(orderId)).toEqual([]);
  const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(view.body).toContain("<cns:StatusCode>ORDWPM</cns:StatusCode>");
}, 60_000);

test("a flight cancelled while the card is being authorised: the commit refuses it (order_flight_cancelled), the authorised leg is voided, the order stays held", async () => {
  const { orderId } = await bookBrand(t, "LIGHT", { held: true });
  const total = (await shopBrand(t, "LIGHT")).totalText;
  const psp = t.gw.orders.ctx.payments.psp;
  const authorise = psp.authorise.bind(psp);
  // The airline cancels the flight after the pre-check passed, while the PSP authorises.
  psp.authorise = async (req) => {
    expect((await cancelFlight(orderId)).status).toBe(200);
    return authorise(req);
  };
  let r;
  try {
    r = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, total, "tok_approve_visa", { correlationId: "pay-race" }));
  } finally {
    psp.authorise = authorise;
  }
  expect([r.status, errorCode(r.body)]).toEqual([409, "order_flight_cancelled"]);
  const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
  expect(legs.map((l) => [l.state, l.captured])).toEqual([["voided", 0]]);
  expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).state).toBe("held_unpaid");
}, 60_000);

for (const brand of ["CLASSIC", "SAVER", "FLEX"]) {
  test(`a paid ${brand} order whose flight the airline then cancelled: the cancel quote gives back everything paid, no fee, and accepting it refunds it all`, async () => {
    const { orderId } = await bookBrand(t, brand);
    const legsBefore = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    const paid = legsBefore.reduce((n, l) => n + l.captured, 0);
    expect(paid).toBeGreaterThan(0);
    expect((await cancelFlight(orderId)).status).toBe(200);
    const q = await quote(t, orderId);
    expect(minor(q.refund)).toBe(paid);
    expect(q.penalty === undefined || minor(q.penalty) === 0).toBe(true);
    expect(q.body).toContain("The airline cancelled flight");
    const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: `cx-${brand}` }));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    expect(legs.reduce((n, l) => n + l.refunded, 0)).toBe(paid);
    expect(legs.every((l) => l.state === "refunded")).toBe(true);
    const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
    expect([order.cancellation?.refundMinor, order.cancellation?.penaltyMinor]).toEqual([paid, 0]);
  }, 60_000);
}
