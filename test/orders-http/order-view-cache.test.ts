/**
 * OrderViewRS is kept encoded while nothing it is built from changes
 * (apps/gateway/src/handlers/order-view-cache.ts): each test reads an order over HTTP first, so
 * the kept view exists, then changes one thing it is built from and reads again.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eraseIdentityDocuments } from "@ndc/pii";
import type { TestGateway } from "../support/gateway";
import { all, blocks, paymentRetryRQ } from "./order-list-helpers";
import { decimal, DOC_NUMBER, gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "./helpers";

let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

async function retrieve(orderId: string): Promise<string> {
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(r.status).toBe(200);
  return r.body;
}

test("two reads of an unchanged order answer the same bytes", async () => {
  const shopped = await shopOffer(t);
  const booked = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "VC-1", trxId: "T" }));
  const id = orderIdOf(booked.body);
  expect(await retrieve(id)).toBe(await retrieve(id));
});

test("erasing the documents (no new order version) shows at the next read", async () => {
  const shopped = await shopOffer(t);
  const pax = [{ id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } }];
  const booked = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "VC-2", trxId: "T" }));
  const id = orderIdOf(booked.body);
  const before = await retrieve(id);
  expect(blocks(before, "IdentityDoc").length).toBe(1);
  expect(await eraseIdentityDocuments(t.gw.store, [id], Date.now())).toBe(1);
  const after = await retrieve(id);
  expect(blocks(after, "IdentityDoc")).toEqual([]);
  expect(all(after, "OrderVersionNumber")).toEqual(all(before, "OrderVersionNumber"));
});

test("paying a held order shows at the next read: state, version and PAYSUM", async () => {
  const shopped = await shopOffer(t);
  const held = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "VC-3", trxId: "T" }));
  const id = orderIdOf(held.body);
  const before = await retrieve(id);
  expect(all(before, "StatusCode")).toContain("ORDWPM");
  const paid = await t.ndc("OrderChangeRQ", paymentRetryRQ(id, decimal(shopped.totalMinor), "tok_approve_visa"));
  expect(paid.status).toBe(200);
  const after = await retrieve(id);
  expect(all(after, "StatusCode")).toContain("BOOKED");
  expect(all(after, "StatusCode")).not.toContain("ORDWPM");
  expect(blocks(after, "PaymentFunctions").length).toBeGreaterThan(blocks(before, "PaymentFunctions").length);
  expect(after).not.toBe(before);
});
