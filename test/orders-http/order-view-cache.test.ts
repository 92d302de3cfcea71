/**
 * OrderViewRS is kept encoded while nothing it is built from changes
 * (apps/gateway/src/handlers/order-view-cache.ts): each test reads an order over HTTP first, so
 * the kept view exists, then changes one thing it is built from and reads again. The same for
 * the view stored with the order's writes (packages/orders/src/read/stored-view.ts), which
 * answers an order whose actor is not in memory: the "evicted" tests drop every actor first.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eraseIdentityDocuments } from "@ndc/pii";
import { sql } from "drizzle-orm";
import type { TestGateway } from "../support/gateway";
import type { ManualClock } from "@ndc/clock";
import { all, blocks, paymentRetryRQ } from "./order-list-helpers";
import { decimal, DOC_NUMBER, gateway, ndcAs, orderCreateRQ, orderIdOf, orderRetrieveRQ, otherSeller, shopOffer } from "./helpers";

let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});

/** Drops every actor, as the idle sweep does: the next read of an order finds it not in memory. */
function evictAll(): void {
  clock.advance(t.gw.config.actors.idleMs + 1);
  t.gw.actors.evictIdle();
  expect(t.gw.actors.size).toBe(0);
}

const storedViews = async (id: string) => ((await t.gw.store.db.all(sql`SELECT count(*) AS n FROM order_views WHERE order_id = ${id}`)) as { n: number }[])[0]!.n;
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
  expect(await eraseIdentityDocuments(t.gw.store, [id], Date.now(), { path: "supervisor", actor: "sup-1", reason: "test" })).toBe(1);
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

test("evicted: the stored view answers the same bytes as the built one, without waking the actor", async () => {
  const shopped = await shopOffer(t, { pax: 2 });
  const pax = [
    { id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } },
    { id: "PAX2", surname: "OTHER" },
  ];
  const booked = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "VC-4", trxId: "T" }));
  const id = orderIdOf(booked.body);
  const resident = await retrieve(id);
  expect(await storedViews(id)).toBe(1);
  evictAll();
  const stored = await retrieve(id);
  expect(t.gw.orders.ctx.orders.isResident(id)).toBe(false);
  expect(stored).toBe(resident);
  expect(stored).not.toContain(DOC_NUMBER);
});

test("evicted: another seller's order is answered exactly like a missing one", async () => {
  const shopped = await shopOffer(t);
  const booked = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "VC-5", trxId: "T" }));
  const id = orderIdOf(booked.body);
  evictAll();
  expect(await storedViews(id)).toBe(1);
  const other = await otherSeller(t, "AGY-VIEW");
  const theirs = await ndcAs(t, other, "OrderRetrieveRQ", orderRetrieveRQ(id, { correlationId: "C-SAME" }));
  const missing = await ndcAs(t, other, "OrderRetrieveRQ", orderRetrieveRQ("ORD-0123456789ABCDEF", { correlationId: "C-SAME" }));
  expect(theirs.status).toBe(missing.status);
  expect(theirs.body).toBe(missing.body);
  expect(theirs.body).not.toContain(id);
});

test("evicted: erasing the documents deletes the stored view in the same transaction, and shows at the next read", async () => {
  const shopped = await shopOffer(t);
  const pax = [{ id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } }];
  const booked = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "VC-6", trxId: "T" }));
  const id = orderIdOf(booked.body);
  evictAll();
  expect(blocks(await retrieve(id), "IdentityDoc").length).toBe(1);
  expect(await eraseIdentityDocuments(t.gw.store, [id], Date.now(), { path: "supervisor", actor: "sup-1", reason: "test" })).toBe(1);
  expect(await storedViews(id)).toBe(0);
  expect(blocks(await retrieve(id), "IdentityDoc")).toEqual([]);
});

test("evicted: a payment leg changed by any writer deletes the stored view; paying a held order stores the paid view", async () => {
  const shopped = await shopOffer(t);
  const held = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "VC-7", trxId: "T" }));
  const id = orderIdOf(held.body);
  const paid = await t.ndc("OrderChangeRQ", paymentRetryRQ(id, decimal(shopped.totalMinor), "tok_approve_visa"));
  expect(paid.status).toBe(200);
  evictAll();
  expect(await storedViews(id)).toBe(1);
  const after = await retrieve(id);
  expect(all(after, "StatusCode")).toContain("BOOKED");
  expect(blocks(after, "PaymentFunctions").length).toBeGreaterThan(0);
  // A writer outside the order's actor (another process, an operator) changes a leg: the trigger drops the view.
  await t.gw.store.write(async (tx) => void (await (tx as any).run(sql`UPDATE payment_legs SET state = state WHERE order_id = ${id}`)));
  expect(await storedViews(id)).toBe(0);
  expect(await retrieve(id)).toBe(after);
});

test("a paid booking encodes its view once: the answer is the view its own write stored", async () => {
  const { viewEncodes } = await import("../../apps/gateway/src/handlers/order-view-cache");
  const shopped = await shopOffer(t);
  const before = viewEncodes.count;
  const booked = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "VC-ONCE", trxId: "T" }));
  expect(booked.status).toBe(200);
  expect(viewEncodes.count - before).toBe(1);
  const id = orderIdOf(booked.body);
  const [{ response: stored }] = (await t.gw.store.db.all(sql`SELECT response FROM order_views WHERE order_id = ${id}`)) as [{ response: string }];
  expect(booked.body).toContain(stored);
  // The next read is answered from the same kept text, with no further encoding.
  expect(await retrieve(id)).toContain(stored);
  expect(viewEncodes.count - before).toBe(1);
});
