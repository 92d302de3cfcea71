import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { validateXml } from "../support/xsd";
import { gateway, otherSeller, ndcAs, DOC_NUMBER } from "../orders-http/helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { updatePaxRQ } from "./rename-helpers";

/**
 * Issue 9 item 5 over HTTP: a name correction (OrderChangeRQ UpdatePax) where the outbound fare
 * is renameable (FLEX), refused with fare_not_renameable otherwise; ONE gateway write and no PSP
 * write; an IdentityDoc on it refused, never dropped. Every answer is XSD-checked by t.ndc.
 */
// Each test books over HTTP: an explicit budget, so a loaded machine does not fail it on Bun's 5 s default.
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
}, 30_000);
afterAll(() => t.close());

const GATEWAY_WRITES_PER_RENAME = 1;
const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);

test("the request form is 24.4-valid", () => {
  const v = validateXml(updatePaxRQ("ORD-X"));
  expect(v.output).toBe(v.ok ? v.output : "");
  expect(v.ok).toBe(true);
});

test(`a FLEX order's passenger renamed in ${GATEWAY_WRITES_PER_RENAME} write, version up by one; a retry writes nothing`, async () => {
  const { orderId, order } = await bookCancellable(t, "RENAME-OK", { brand: "FLEX", seat: false });
  const w = await countWrites(() => t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { given: "Alexandra", surname: "TRAVELER" })));
  expect(w.result.status).toBe(200);
  expect(w.result.body).toContain("<cns:Surname>TRAVELER</cns:Surname>");
  expect(w.result.body).toContain("<cns:GivenName>Alexandra</cns:GivenName>");
  expect(w.gateway).toBe(GATEWAY_WRITES_PER_RENAME);
  expect(w.psp).toBe(0);
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.version).toBe(order.version + 1);
  expect(after.history.at(-1)!.kind).toBe("pax_updated");
  expect(after.totalMinor).toBe(order.totalMinor);
  // The history entry names no personal data.
  expect(JSON.stringify(after.history)).not.toContain("TRAVELER");

  const again = await countWrites(() => t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { given: "Alexandra", surname: "TRAVELER" })));
  expect(again.result.status).toBe(200);
  expect(again.gateway + again.psp).toBe(0);
  // The same ids with another body: a conflict, not a second rename.
  const conflict = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { surname: "OTHER" }));
  expect(conflict.status).toBe(409);
  expect(conflict.body).toContain("idempotency_conflict");

  const history = await t.ndc("OrderHistoryRQ", (await import("../support/requests")).ndcRequest("OrderHistoryRQ", { request: `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>` }));
  expect(history.status).toBe(200);
  expect(history.body).toContain("PAX_UPDATED");
}, 30_000);

test("a fare that is not renameable is refused with fare_not_renameable, nothing written", async () => {
  const { orderId, order } = await bookCancellable(t, "RENAME-NO", { brand: "CLASSIC", seat: false });
  const w = await countWrites(() => t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-no" })));
  expect(w.result.status).toBe(409);
  expect(w.result.body).toContain("fare_not_renameable");
  expect(w.gateway).toBe(0);
  expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).version).toBe(order.version);
}, 30_000);

test("an IdentityDoc sent on UpdatePax's passenger is refused with identity_document_not_updatable, never echoed", async () => {
  const { orderId, order } = await bookCancellable(t, "RENAME-DOC", { brand: "FLEX", seat: false });
  const doc = `<cns:IdentityDoc><cns:IdentityDocID>${DOC_NUMBER}</cns:IdentityDocID><cns:IdentityDocTypeCode>PT</cns:IdentityDocTypeCode><cns:Surname>TRAVELLER</cns:Surname></cns:IdentityDoc>`;
  const w = await countWrites(() => t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { extra: doc, trxId: "trx-doc" })));
  expect(w.result.status).toBe(400);
  expect(w.result.body).toContain("identity_document_not_updatable");
  expect(w.result.body).not.toContain(DOC_NUMBER);
  expect(w.gateway).toBe(0);
  expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).version).toBe(order.version);
}, 30_000);

test("a name longer than 24.4 ProperNameType (64) is refused at decode; an unknown passenger is request_invalid", async () => {
  const { orderId } = await bookCancellable(t, "RENAME-LONG", { brand: "FLEX", seat: false });
  const long = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { surname: "A".repeat(65), trxId: "trx-long" }));
  expect(long.status).toBe(400);
  expect(long.body).toContain("request_invalid");
  const unknown = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { paxId: "PAX7", trxId: "trx-unknown" }));
  expect(unknown.status).toBe(400);
  expect(unknown.body).toContain("request_invalid");
}, 30_000);

test("another seller's order is answered as missing", async () => {
  const { orderId } = await bookCancellable(t, "RENAME-OTHER", { brand: "FLEX", seat: false });
  const r = await ndcAs(t, await otherSeller(t), "OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-other" }));
  expect(r.status).toBe(404);
  expect(r.body).toContain("order_not_found");
}, 30_000);

test("an IdentityDoc on OrderReshopRQ is refused with identity_document_not_updatable, never echoed", async () => {
  const { orderId } = await bookCancellable(t, "RESHOP-DOC", { brand: "FLEX", seat: false });
  const doc = `<cns:IdentityDoc><cns:IdentityDocID>${DOC_NUMBER}</cns:IdentityDocID><cns:IdentityDocTypeCode>PT</cns:IdentityDocTypeCode><cns:Surname>TRAVELLER</cns:Surname></cns:IdentityDoc>`;
  const request = `<cns:OrderRefID>${orderId}</cns:OrderRefID><cns:UpdateOrder><cns:CancelOrderRef><cns:OrderRefID>${orderId}</cns:OrderRefID></cns:CancelOrderRef></cns:UpdateOrder><cns:DataLists><cns:PaxList><cns:Pax>${doc}<cns:PaxID>PAX1</cns:PaxID></cns:Pax></cns:PaxList></cns:DataLists>`;
  const r = await t.ndc("OrderReshopRQ", (await import("../support/requests")).ndcRequest("OrderReshopRQ", { request, correlationId: "corr-reshop-doc" }));
  expect(r.status).toBe(400);
  expect(r.body).toContain("identity_document_not_updatable");
  expect(r.body).not.toContain(DOC_NUMBER);
}, 30_000);
