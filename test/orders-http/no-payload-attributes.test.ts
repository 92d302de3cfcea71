import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { all, paymentRetryRQ } from "./order-list-helpers";
import { gateway, orderCreateRQ, orderIdOf, shopOffer } from "./helpers";
import { addRQ, extrasFor } from "../servicing/add-helpers";
import { bookCancellable, sellerOf } from "../servicing/cancel-helpers";
import { updatePaxRQ } from "../servicing/rename-helpers";

/**
 * Issue 20 item 1: PayloadAttributes is optional in 24.4 (spec 2.2), and sellers' systems shaped
 * like IATA's examples leave it out. OrderCreateRQ and OrderChangeRQ without it are served; the
 * request itself is then its key (apps/gateway/src/handlers/request-key.ts): the same message sent
 * twice books, pays, adds or renames once, and the PSP is not called the second time. A request
 * that had PayloadAttributes gets them back; one without gets none. Answers are XSD-checked by t.ndc.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
/** The same message as IATA's examples often write it: no PayloadAttributes at all. */
const bare = (xml: string) => {
  const out = xml.replace(/<PayloadAttributes>[\s\S]*?<\/PayloadAttributes>/, "");
  expect(out).not.toContain("PayloadAttributes");
  return out;
};
const captured = async (orderId: string) => (await t.gw.orders.retrieve(orderId, sellerOf(t))).legs.filter((l) => l.state === "captured");

test("OrderCreateRQ without PayloadAttributes books and pays; the same message again is the same order, nothing charged twice", async () => {
  const shopped = await shopOffer(t, { n: 1 });
  const body = bare(orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }] }));
  const first = await t.ndc("OrderCreateRQ", body);
  expect(first.status).toBe(200);
  expect(first.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  // Nothing to echo: the gateway's own key never shows.
  expect(first.body).not.toContain("PayloadAttributes");
  expect(first.body).not.toContain("content:");
  const orderId = orderIdOf(first.body);
  expect(await captured(orderId)).toHaveLength(1);
  const again = await countWrites(() => t.ndc("OrderCreateRQ", body));
  expect(again.result.status).toBe(200);
  expect(orderIdOf(again.result.body)).toBe(orderId);
  expect(again.psp).toBe(0);
  expect(await captured(orderId)).toHaveLength(1);
  // Another message (another passenger) is another order.
  const other = await t.ndc("OrderCreateRQ", bare(orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "OTHERNAME" }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }] })));
  expect(other.status).toBe(200);
  expect(orderIdOf(other.body)).not.toBe(orderId);
});

test("OrderCreateRQ with a CorrelationID alone: keyed on it (a retry is the same order) and echoed with VersionNumber", async () => {
  const shopped = await shopOffer(t, { n: 2 });
  const body = orderCreateRQ({ shopped, correlationId: "CORR-ONLY-1" });
  expect(body).not.toContain("TrxID");
  const first = await t.ndc("OrderCreateRQ", body);
  expect(first.status).toBe(200);
  expect(first.body).toContain("<PayloadAttributes><cns:CorrelationID>CORR-ONLY-1</cns:CorrelationID><cns:VersionNumber>24.4</cns:VersionNumber></PayloadAttributes>");
  const again = await t.ndc("OrderCreateRQ", body);
  expect(orderIdOf(again.body)).toBe(orderIdOf(first.body));
  // The same CorrelationID with another body is a conflict, as with both ids.
  const changed = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "CORR-ONLY-1", pax: [{ id: "PAX1", surname: "SOMEONEELSE" }] }));
  expect(changed.status).toBe(409);
  expect(all(changed.body, "Code")).toContain("idempotency_conflict");
});

test("a held order paid by OrderChangeRQ without PayloadAttributes: booked once; the same payment again is answered, never captured twice", async () => {
  const shopped = await shopOffer(t, { n: 3 });
  const held = await t.ndc("OrderCreateRQ", bare(orderCreateRQ({ shopped })));
  expect(held.status).toBe(200);
  const orderId = orderIdOf(held.body);
  const pay = bare(paymentRetryRQ(orderId, (shopped.totalMinor / 100).toFixed(2), "tok_approve_visa"));
  const first = await t.ndc("OrderChangeRQ", pay);
  expect(first.status).toBe(200);
  expect(first.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  expect(first.body).not.toContain("PayloadAttributes");
  const again = await countWrites(() => t.ndc("OrderChangeRQ", pay));
  expect(again.result.status).toBe(200);
  expect(again.psp).toBe(0);
  expect(await captured(orderId)).toHaveLength(1);
});

test("extras bought by OrderChangeRQ without PayloadAttributes: added and charged once when the message is sent twice", async () => {
  const { orderId } = await bookCancellable(t, "NOPA-ADD", { seat: false });
  const listed = await extrasFor(t, orderId);
  const item = listed.items.find((i) => i.paxIds.includes("PAX1"))!;
  const body = bare(addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: 1 }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  const first = await t.ndc("OrderChangeRQ", body);
  expect(first.status).toBe(200);
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const again = await countWrites(() => t.ndc("OrderChangeRQ", body));
  expect(again.result.status).toBe(200);
  expect(again.psp).toBe(0);
  const same = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(same.items).toHaveLength(after.items.length);
  expect(same.legs.filter((l) => l.state === "captured")).toHaveLength(after.legs.filter((l) => l.state === "captured").length);
});

test("a name correction without PayloadAttributes: made once; the same message again writes nothing", async () => {
  const { orderId, order } = await bookCancellable(t, "NOPA-RENAME", { brand: "FLEX", seat: false });
  const body = bare(updatePaxRQ(orderId, { given: "Alexandra", surname: "TRAVELER" }));
  const first = await t.ndc("OrderChangeRQ", body);
  expect(first.status).toBe(200);
  expect(first.body).toContain("<cns:Surname>TRAVELER</cns:Surname>");
  const again = await countWrites(() => t.ndc("OrderChangeRQ", body));
  expect(again.result.status).toBe(200);
  expect(again.gateway + again.psp).toBe(0);
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.version).toBe(order.version + 1);
});

test("an OrderChangeRQ that had PayloadAttributes gets CorrelationID, TrxID and VersionNumber back", async () => {
  const shopped = await shopOffer(t, { n: 4 });
  const held = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "C-ECHO", trxId: "T-ECHO" }));
  expect(held.body).toContain("<PayloadAttributes><cns:CorrelationID>C-ECHO</cns:CorrelationID><cns:TrxID>T-ECHO</cns:TrxID><cns:VersionNumber>24.4</cns:VersionNumber></PayloadAttributes>");
  const r = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderIdOf(held.body), (shopped.totalMinor / 100).toFixed(2), "tok_approve_visa", { correlationId: "C-PAY", trxId: "T-PAY" }));
  expect(r.status).toBe(200);
  expect(r.body).toContain("<PayloadAttributes><cns:CorrelationID>C-PAY</cns:CorrelationID><cns:TrxID>T-PAY</cns:TrxID><cns:VersionNumber>24.4</cns:VersionNumber></PayloadAttributes>");
});
