import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { all, blocks, book, card, FARE_MINOR, normalise, orderChangeRQ, orderRetrieveRQ, OTHER, paymentRetryRQ, start, type Ctx } from "./order-list-helpers";

let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

const change = (xml: string) => c.t.ndc("OrderChangeRQ", xml);
const statusOf = (xml: string) => all(blocks(xml, "Order")[0] ?? xml, "StatusCode").at(-1);

test("a declined payment retried with OrderChangeRQ: Booked, the legs captured, shown in PAYSUM", async () => {
  const order = await book(c, { tag: "C1", pax: [["PAX1", "ADT"], ["PAX2", "ADT"]], payment: [card(2 * FARE_MINOR, "tok_decline")] });
  expect(order.state).toBe("held_payment_declined");
  const r = await change(paymentRetryRQ(order.orderId, "400.00", "tok_approve_mastercard", { trxId: "retry-1" }));
  expect(r.status).toBe(200);
  expect(r.body).toContain("<IATA_OrderViewRS");
  expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  expect(r.body).toContain("4444");
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(after.state).toBe("booked");
  const captured = after.legs.filter((l) => l.state === "captured");
  expect(captured.map((l) => l.amountMinor)).toEqual([2 * FARE_MINOR]);
  // The same request again resumes the same attempt: the same order, nothing charged twice.
  const again = await change(paymentRetryRQ(order.orderId, "400.00", "tok_approve_mastercard", { trxId: "retry-1" }));
  expect(again.status).toBe(200);
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).legs.filter((l) => l.state === "captured").length).toBe(1);
});

test("a held unpaid order is paid; a declined retry keeps it held with the decline shown", async () => {
  const order = await book(c, { tag: "C2" });
  const declined = await change(paymentRetryRQ(order.orderId, "200.00", "tok_decline", { trxId: "a" }));
  expect(declined.status).toBe(200);
  expect(declined.body).toContain("<cns:StatusCode>PAYMENT_DECLINED</cns:StatusCode>");
  expect(declined.body).toContain("<cns:Code>do_not_honour</cns:Code>");
  const paid = await change(paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa", { trxId: "b" }));
  expect(paid.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  // A booked order is not paid again.
  const twice = await change(paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa", { trxId: "c" }));
  expect(twice.status).toBe(409);
  expect(errorCode(twice.body)).toBe("order_state_invalid");
});

test("a retry after the payment time limit is refused; expiry then cancels the order and OrderRetrieve shows it", async () => {
  const order = await book(c, { tag: "C3", payment: [card(FARE_MINOR, "tok_decline")] });
  c.clock.advance(order.paymentTimeLimit! - c.clock.now());
  const late = await change(paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa", { trxId: "late" }));
  expect(late.status).toBe(409);
  expect(errorCode(late.body)).toBe("payment_time_limit_passed");
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).legs.some((l) => l.state === "captured" || l.state === "authorised")).toBe(false);
  expect(await c.t.gw.orders.expireUnpaid()).toContain(order.orderId);
  const shown = await c.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(order.orderId));
  expect(shown.status).toBe(200);
  expect(shown.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
  const paid = await change(paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa", { trxId: "later" }));
  expect(paid.status).toBe(409);
});

test("an IdentityDoc on OrderChangeRQ is refused with identity_document_not_updatable, naming the element", async () => {
  const order = await book(c, { tag: "C4" });
  const doc = "<cns:IdentityDoc><cns:IdentityDocID>ZQ9X0000NEWDOC</cns:IdentityDocID><cns:IdentityDocTypeCode>PT</cns:IdentityDocTypeCode><cns:Surname>LOVELACE0</cns:Surname></cns:IdentityDoc>";
  const update = `<cns:ChangeOrderChoice><cns:UpdatePax><cns:CurrentPaxRefID>PAX1</cns:CurrentPaxRefID><cns:NewPax>${doc}<cns:PaxID>PAX1</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:NewPax></cns:UpdatePax></cns:ChangeOrderChoice><cns:Order><cns:OrderID>${order.orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>`;
  const r = await change(orderChangeRQ(update));
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("identity_document_not_updatable");
  expect(r.body).toContain("IdentityDoc");
  expect(r.body).not.toContain("ZQ9X0000NEWDOC");
  expect(c.t.logs.join("\n")).not.toContain("ZQ9X0000NEWDOC");
  // With a payment beside it the document is still refused, and nothing is paid.
  const withPay = await change(paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa", { extra: `<cns:DataLists><cns:PaxList><cns:Pax>${doc}<cns:PaxID>PAX1</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:Pax></cns:PaxList></cns:DataLists>` }));
  expect(errorCode(withPay.body)).toBe("identity_document_not_updatable");
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).state).toBe("held_unpaid");
});

test("other change forms are refused with change_not_supported (after the ownership check)", async () => {
  const order = await book(c, { tag: "C5" });
  const cancel = `<cns:ChangeOrderChoice><cns:CancelUnpaidOrder><cns:OrderRefID>${order.orderId}</cns:OrderRefID><cns:SelectedOrderItem><cns:OrderItemRefID>${order.items[0]!.orderItemId}</cns:OrderItemRefID></cns:SelectedOrderItem></cns:CancelUnpaidOrder></cns:ChangeOrderChoice><cns:Order><cns:OrderID>${order.orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>`;
  const r = await change(orderChangeRQ(cancel));
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("change_not_supported");
  expect(r.body).toContain("CancelUnpaidOrder is not offered yet.");
  const theirs = await book(c, { tag: "C6", seller: OTHER });
  const other = await change(orderChangeRQ(cancel.replaceAll(order.orderId, theirs.orderId)));
  expect(other.status).toBe(404);
  expect(errorCode(other.body)).toBe("order_not_found");
});

test("another seller's order: 404 order_not_found, identical to a missing order; nothing is charged", async () => {
  const theirs = await book(c, { tag: "C7", seller: OTHER });
  const other = await change(paymentRetryRQ(theirs.orderId, "200.00", "tok_approve_visa"));
  const missing = await change(paymentRetryRQ("ORD-DOES-NOT-EXIST", "200.00", "tok_approve_visa"));
  expect(other.status).toBe(404);
  expect(errorCode(other.body)).toBe("order_not_found");
  expect(missing.status).toBe(404);
  expect(normalise(other.body)).toBe(normalise(missing.body));
  expect([...other.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort());
  expect((await c.t.gw.orders.retrieve(theirs.orderId, OTHER)).state).toBe("held_unpaid");
  expect(statusOf(other.body)).toBeUndefined();
});

test("a payment without CorrelationID and TrxID is served (PayloadAttributes is optional); the same message again is never charged twice", async () => {
  const order = await book(c, { tag: "C8" });
  const xml = paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa").replace(/<PayloadAttributes>.*?<\/PayloadAttributes>/, "");
  const r = await change(xml);
  expect(r.status).toBe(200);
  expect(statusOf(r.body)).toBe("BOOKED");
  const again = await change(xml);
  expect(again.status).toBe(200);
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(after.legs.filter((l) => l.state === "captured")).toHaveLength(1);
});
